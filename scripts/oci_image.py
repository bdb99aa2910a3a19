#!/usr/bin/env python3
"""Writes the container image of hbase-emulator without a daemon or a Dockerfile: the static
binaries are the whole image (no base, no shell), so the layer can be assembled here, byte for
byte the same on every run (sorted entries, fixed owners, mtime from SOURCE_DATE_EPOCH or 0).

    scripts/oci_image.py --version V --commit C --out DIST --arch amd64=DIR [--arch arm64=DIR]

Each DIR holds statically linked hbase-emulator and hbase-shell for that architecture and
THIRD_PARTY_LICENSES.txt. Writes into DIST:
  hbase-emulator-V-oci.tar                   OCI image layout, every architecture, tagged V
                                             (skopeo copy --all oci-archive:FILE:V docker://...)
  hbase-emulator-V-image-linux-ARCH.tar      one architecture: an OCI layout that also carries
                                             Docker's manifest.json (docker load -i FILE)
Python 3 standard library only.
"""

import argparse
import datetime
import gzip
import hashlib
import io
import json
import os
import struct
import sys
import tarfile

NAME = "hbase-emulator"
DESCRIPTION = ("Apache HBase's Thrift1 and Thrift2 gateways over LevelDB in one native process: "
               "a test backend for any HBase Thrift client, with no Java and no cluster")
# distroless's "nonroot": a fixed id that no user of the host is likely to have.
UID = GID = 65532
# (OCI architecture, variant, ELF e_machine) per --arch name.
PLATFORMS = {"amd64": ("amd64", None, 62), "arm64": ("arm64", "v8", 183)}
ENTRYPOINT = ["/hbase-emulator", "--bind", "0.0.0.0", "--admin-bind", "0.0.0.0",
              "--data-dir", "/data"]
PORTS = ("9090/tcp", "9091/tcp", "9095/tcp", "8080/tcp")
SECOND_NS = 1000 * 1000 * 1000

MEDIA_INDEX = "application/vnd.oci.image.index.v1+json"
MEDIA_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
MEDIA_CONFIG = "application/vnd.oci.image.config.v1+json"
MEDIA_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip"
REF_NAME = "org.opencontainers.image.ref.name"


def canonical_json(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


class Blob:
    def __init__(self, data, media_type):
        self.data = data
        self.media_type = media_type
        self.digest = "sha256:" + hashlib.sha256(data).hexdigest()

    @property
    def path(self):
        return "blobs/sha256/" + self.digest.split(":", 1)[1]

    def descriptor(self, **extra):
        d = {"mediaType": self.media_type, "digest": self.digest, "size": len(self.data)}
        d.update(extra)
        return d


def tar_bytes(entries, mtime):
    """A tar of (name, mode, uid, data-or-None for a directory), sorted, owned by numeric ids only."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, mode, owner, data in sorted(entries, key=lambda e: e[0]):
            info = tarfile.TarInfo(name)
            info.mode, info.uid, info.gid, info.mtime = mode, owner, owner, mtime
            info.uname = info.gname = ""
            if data is None:
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def check_static_elf(path, machine):
    """Refuses a binary the image could not run: another architecture, or one that needs a
    dynamic loader (the image has no /lib)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit("oci_image: %s is not a 64-bit little-endian ELF file" % path)
    (e_machine,) = struct.unpack_from("<H", data, 18)
    if e_machine != machine:
        sys.exit("oci_image: %s is for ELF machine %d, not %d" % (path, e_machine, machine))
    (phoff,) = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    for i in range(phnum):
        (p_type,) = struct.unpack_from("<I", data, phoff + i * phentsize)
        if p_type == 3:  # PT_INTERP
            sys.exit("oci_image: %s is dynamically linked; the image needs static binaries" % path)
    return data


def layer_entries(bin_dir, machine):
    read = lambda name: open(os.path.join(bin_dir, name), "rb").read()
    passwd = ("root:x:0:0:root:/root:/sbin/nologin\n"
              # HOME is /tmp so `docker exec -it C /hbase-shell` keeps its history out of /data.
              "hbase:x:%d:%d:hbase:/tmp:/sbin/nologin\n" % (UID, GID)).encode()
    group = ("root:x:0:\nhbase:x:%d:\n" % GID).encode()
    return [
        ("hbase-emulator", 0o755, 0, check_static_elf(os.path.join(bin_dir, NAME), machine)),
        ("hbase-shell", 0o755, 0, check_static_elf(os.path.join(bin_dir, "hbase-shell"), machine)),
        ("THIRD_PARTY_LICENSES.txt", 0o644, 0, read("THIRD_PARTY_LICENSES.txt")),
        # The volume: a fresh named volume copies this directory's owner, so the server can
        # write there without root.
        ("data", 0o755, UID, None),
        ("tmp", 0o1777, 0, None),
        ("etc", 0o755, 0, None),
        ("etc/passwd", 0o644, 0, passwd),
        ("etc/group", 0o644, 0, group),
    ]


def labels(args, created):
    return {
        "org.opencontainers.image.title": NAME,
        "org.opencontainers.image.description": DESCRIPTION,
        "org.opencontainers.image.version": args.version,
        "org.opencontainers.image.revision": args.commit,
        "org.opencontainers.image.licenses": args.licenses,
        "org.opencontainers.image.created": created,
    }


def image_config(args, arch, layer_diff_id, created):
    architecture, variant, _ = PLATFORMS[arch]
    config = {
        "created": created,
        "architecture": architecture,
        "os": "linux",
        "config": {
            "User": "%d:%d" % (UID, GID),
            # The binaries sit at /, so `docker exec C hbase-shell` finds the shell by name.
            "Env": ["PATH=/"],
            "Entrypoint": ENTRYPOINT,
            # Empty, so `docker run IMAGE --in-memory` (or any flag) lands after the entrypoint.
            "Cmd": [],
            "ExposedPorts": {p: {} for p in PORTS},
            "Volumes": {"/data": {}},
            "WorkingDir": "/data",
            "StopSignal": "SIGTERM",
            "Labels": labels(args, created),
            # Docker reads this from the image config (OCI has no such field); durations in ns.
            "Healthcheck": {
                "Test": ["CMD", "/hbase-emulator", "--health-check"],
                "Interval": 5 * SECOND_NS,
                "Timeout": 3 * SECOND_NS,
                "StartPeriod": 5 * SECOND_NS,
                "Retries": 3,
            },
        },
        "rootfs": {"type": "layers", "diff_ids": [layer_diff_id]},
        "history": [{"created": created,
                     "created_by": "scripts/oci_image.py (hbase-emulator %s, commit %s)"
                                   % (args.version, args.commit)}],
    }
    if variant:
        config["variant"] = variant
    return config


def build_arch(args, arch, bin_dir, mtime, created):
    """(manifest blob, platform, [config blob, layer blob]) for one architecture."""
    layer_tar = tar_bytes(layer_entries(bin_dir, PLATFORMS[arch][2]), mtime)
    diff_id = "sha256:" + hashlib.sha256(layer_tar).hexdigest()
    layer = Blob(gzip.compress(layer_tar, compresslevel=9, mtime=0), MEDIA_LAYER)
    config = Blob(canonical_json(image_config(args, arch, diff_id, created)), MEDIA_CONFIG)
    manifest = Blob(canonical_json({
        "schemaVersion": 2,
        "mediaType": MEDIA_MANIFEST,
        "config": config.descriptor(),
        "layers": [layer.descriptor()],
        "annotations": {"org.opencontainers.image.created": created,
                        "org.opencontainers.image.version": args.version,
                        "org.opencontainers.image.revision": args.commit},
    }), MEDIA_MANIFEST)
    architecture, variant, _ = PLATFORMS[arch]
    platform = {"architecture": architecture, "os": "linux"}
    if variant:
        platform["variant"] = variant
    return manifest, platform, [config, layer]


def write_layout(path, index, blobs, mtime, docker_manifest=None):
    """An OCI image layout as a tar archive; with docker_manifest, also Docker's manifest.json."""
    entries = [("oci-layout", 0o644, 0, canonical_json({"imageLayoutVersion": "1.0.0"})),
               ("index.json", 0o644, 0, canonical_json(index)),
               ("blobs", 0o755, 0, None), ("blobs/sha256", 0o755, 0, None)]
    seen = set()
    for blob in blobs:
        if blob.digest not in seen:
            seen.add(blob.digest)
            entries.append((blob.path, 0o644, 0, blob.data))
    if docker_manifest is not None:
        entries.append(("manifest.json", 0o644, 0, canonical_json(docker_manifest)))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(tar_bytes(entries, mtime))
    os.replace(tmp, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--out", required=True, help="folder for the archives")
    parser.add_argument("--arch", action="append", required=True, metavar="ARCH=DIR",
                        help="amd64=DIR or arm64=DIR (repeatable)")
    # The project states no licence of its own yet: SPDX's word for "not stated".
    parser.add_argument("--licenses", default="NOASSERTION",
                        help="SPDX expression for the org.opencontainers.image.licenses label")
    args = parser.parse_args()

    mtime = int(os.environ.get("SOURCE_DATE_EPOCH", "0"))
    created = datetime.datetime.fromtimestamp(mtime, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")
    arches = []
    for spec in args.arch:
        arch, sep, bin_dir = spec.partition("=")
        if not sep or arch not in PLATFORMS:
            parser.error("--arch takes %s=DIR, not %r" % ("|".join(PLATFORMS), spec))
        if arch in (a for a, _ in arches):
            parser.error("--arch %s given twice" % arch)
        arches.append((arch, bin_dir))
    os.makedirs(args.out, exist_ok=True)

    tags = ["%s:%s" % (NAME, args.version), "%s:latest" % NAME]
    all_blobs, per_arch = [], []
    for arch, bin_dir in arches:
        manifest, platform, blobs = build_arch(args, arch, bin_dir, mtime, created)
        config, layer = blobs
        ref = {REF_NAME: args.version, "io.containerd.image.name": "docker.io/library/" + tags[0]}
        index = {"schemaVersion": 2, "mediaType": MEDIA_INDEX,
                 "manifests": [manifest.descriptor(platform=platform, annotations=ref)]}
        docker = [{"Config": config.path, "RepoTags": tags, "Layers": [layer.path]}]
        path = os.path.join(args.out, "%s-%s-image-linux-%s.tar" % (NAME, args.version, arch))
        write_layout(path, index, [manifest] + blobs, mtime, docker)
        print("%s  %s %s" % (path, platform["architecture"], manifest.digest))
        all_blobs += [manifest] + blobs
        per_arch.append(manifest.descriptor(platform=platform))

    # One image index names every architecture; index.json tags it, as BuildKit's OCI export
    # does, so `skopeo copy --all oci-archive:FILE:V` pushes the multi-arch image and a pull of
    # it picks the platform.
    image_index = Blob(canonical_json({
        "schemaVersion": 2, "mediaType": MEDIA_INDEX, "manifests": per_arch,
        "annotations": {"org.opencontainers.image.created": created,
                        "org.opencontainers.image.version": args.version,
                        "org.opencontainers.image.revision": args.commit}}), MEDIA_INDEX)
    top = {"schemaVersion": 2, "mediaType": MEDIA_INDEX,
           "manifests": [image_index.descriptor(annotations={REF_NAME: args.version})]}
    path = os.path.join(args.out, "%s-%s-oci.tar" % (NAME, args.version))
    write_layout(path, top, [image_index] + all_blobs, mtime)
    print("%s  %s %s" % (path, ",".join(a for a, _ in arches), image_index.digest))


if __name__ == "__main__":
    main()
