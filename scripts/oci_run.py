#!/usr/bin/env python3
"""Runs a command inside an unpacked image's root file system the way a container runtime would:
chroot, the image's WorkingDir, User and Env (with HOME from the image's /etc/passwd), and with
no arguments after --, the image's Entrypoint + Cmd. It execs, so the caller's process becomes
the command (signals and the exit status reach the caller unchanged). Needs root; used by
scripts/check_image.sh inside its namespaces.

    oci_run.py CONFIG_JSON ROOTFS [--qemu PATH_IN_ROOTFS] [--print ENTRY] -- [ARGV...]

--qemu runs the command through a static qemu-user binary copied into the root file system, for
an image of another architecture on a machine without binfmt_misc. --print prints a field of the
config (Entrypoint, Cmd, Healthcheck), JSON-encoded, and exits.
"""

import json
import os
import sys


def user_ids(spec, rootfs):
    """(uid, gid) for a User value: "uid", "uid:gid" or names from the image's own files."""
    user, _, group = (spec or "0").partition(":")

    def lookup(name, path, field):
        if name.isdigit():
            return int(name)
        with open(os.path.join(rootfs, path)) as f:
            for line in f:
                parts = line.rstrip("\n").split(":")
                if parts[0] == name:
                    return int(parts[field])
        sys.exit("oci_run: %s not found in the image's /%s" % (name, path))

    uid = lookup(user, "etc/passwd", 2)
    gid = lookup(group, "etc/group", 2) if group else None
    home = "/"
    try:
        with open(os.path.join(rootfs, "etc/passwd")) as f:
            for line in f:
                parts = line.rstrip("\n").split(":")
                if len(parts) > 5 and parts[2] == str(uid):
                    home = parts[5]
                    gid = int(parts[3]) if gid is None else gid
                    break
    except FileNotFoundError:
        pass
    return uid, 0 if gid is None else gid, home


def main():
    args = sys.argv[1:]
    if "--" not in args or len(args[:args.index("--")]) < 2:
        sys.exit(__doc__)
    head, argv = args[:args.index("--")], args[args.index("--") + 1:]
    config_path, rootfs, options = head[0], os.path.abspath(head[1]), head[2:]
    with open(config_path) as f:
        config = json.load(f).get("config") or {}
    qemu = None
    while options:
        flag, value, options = options[0], options[1], options[2:]
        if flag == "--qemu":
            qemu = value
        elif flag == "--print":
            print(json.dumps(config.get(value)))
            return
        else:
            sys.exit("oci_run: unknown option " + flag)
    if not argv:
        argv = (config.get("Entrypoint") or []) + (config.get("Cmd") or [])
    if not argv:
        sys.exit("oci_run: the image names no command")
    uid, gid, home = user_ids(config.get("User"), rootfs)
    env = {"HOME": home}
    for entry in config.get("Env") or []:
        key, _, value = entry.partition("=")
        env[key] = value
    if qemu:
        argv = [qemu] + argv
    os.chroot(rootfs)
    os.chdir(config.get("WorkingDir") or "/")
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    # The image's PATH, not ours, finds a bare command name, as in a container.
    program = argv[0]
    if "/" not in program:
        for folder in env.get("PATH", "/usr/bin:/bin").split(":"):
            if os.access(os.path.join(folder, program), os.X_OK):
                program = os.path.join(folder, program)
                break
    os.execve(program, argv, env)


if __name__ == "__main__":
    main()
