#!/usr/bin/env python3
"""Checks that what the repository's documents and comments point at exists.

    scripts/check_doc_refs.py [REPO]     exit 1 and list every dangling reference

Two kinds are checked, in every tracked text file (documents, sources, tests, scripts):
  * Markdown links `[text](target)` in *.md files: a relative target must exist, and a
    `#anchor` must be a heading (GitHub's anchor for it) or an `<a id="...">` of the target page;
  * repository paths written in prose or comments (`storage/visibility.h`,
    `docs/hbase-semantics.md#ttl`, `server/thrift1/batch_mutations`): the file or folder must
    exist (a path without extension may name any file it begins), and an anchor must exist too.
Paths with wildcards or placeholders (`test_hostile_*.py`, `<name>`) are skipped. CTest runs it
(tests/CMakeLists.txt, docs_repo_references), so a renamed file or heading cannot leave a
comment or a page pointing nowhere.
"""

import re
import subprocess
import sys
from pathlib import Path

TOP_DIRS = ("docs", "server", "storage", "shell", "tests", "python-compat", "scripts", "thrift",
            "cmake")
TEXT_SUFFIXES = {".md", ".h", ".cc", ".py", ".sh", ".cmake", ".txt", ".thrift", ".proto", ".toml",
                 ".ini", ".hbase"}
# Written by a change on another branch; remove once it is merged.
PENDING = set()
# libthrift's own headers, which comments name by their include path.
LIBRARY_PREFIXES = ("thrift/protocol/", "thrift/transport/", "thrift/server/", "thrift/T")
# Made by the project's scripts, so absent from a fresh clone (python-compat/run.sh makes the venv).
GENERATED_PREFIXES = ("python-compat/.venv",)
# Words that read like paths but are not ("server/reference alternations").
NOT_PATHS = {"server/reference"}

PATH_RE = re.compile(r"(?<![\w./-])((?:%s)/[\w./-]*[\w/])(#[\w-]+)?" % "|".join(
    re.escape(d) for d in TOP_DIRS))
LINK_RE = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading):
    """GitHub's anchor for a heading."""
    text = heading.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, inside = set(), False
        for line in path.read_text(errors="replace").split("\n"):
            if line.startswith("```"):
                inside = not inside
                continue
            if inside:
                continue
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                found.add(slug(m.group(1)))
            found.update(re.findall(r"<a id=\"([^\"]+)\"", line))
        cache[path] = found
    return cache[path]


def path_exists(repo, rel):
    rel = rel.rstrip("/.")
    target = repo / rel
    if target.exists():
        return True
    parent = target.parent
    return parent.is_dir() and any(p.name.startswith(target.name + ".") for p in parent.iterdir())


def check_anchor(repo, page, anchor, where, problems):
    if page.suffix == ".md" and page.exists() and anchor and anchor[1:] not in anchors(page):
        problems.append("%s: %s%s: no such heading or anchor" % (where, page.relative_to(repo), anchor))


def main(argv):
    repo = Path(argv[0] if argv else Path(__file__).resolve().parent.parent).resolve()
    listed = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True)
    if listed.returncode == 0:
        files = listed.stdout.split()
    else:  # not a git checkout (an unpacked source tarball): every file but build trees
        files = [str(p.relative_to(repo)) for p in repo.rglob("*")
                 if p.is_file() and not any(part.startswith((".", "build")) for part in
                                            p.relative_to(repo).parts)]
    problems = []
    for name in files:
        path = repo / name
        if path.suffix not in TEXT_SUFFIXES or not path.is_file() or name.startswith("build"):
            continue
        text = path.read_text(errors="replace")
        for lineno, line in enumerate(text.split("\n"), 1):
            if line.lstrip().startswith("#include"):
                continue  # include paths name libraries and generated headers, not repo files
            where = "%s:%d" % (name, lineno)
            for m in PATH_RE.finditer(line):
                rel, anchor = m.group(1), m.group(2)
                after = line[m.end(1):m.end(1) + 1]
                if (any(c in rel for c in "*<>{}$") or after in ("*", "<", "{", "$")
                        or rel in PENDING or rel in NOT_PATHS or rel.startswith(LIBRARY_PREFIXES)
                        or rel.startswith(GENERATED_PREFIXES)):
                    continue
                # CMake lists and some scripts name files relative to their own folder.
                if not path_exists(repo, rel) and not path_exists(path.parent, rel):
                    problems.append("%s: %s does not exist" % (where, rel))
                else:
                    check_anchor(repo, repo / rel, anchor, where, problems)
            if path.suffix != ".md":
                continue
            for m in LINK_RE.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-z]+:", target) or target.startswith("<"):
                    continue
                file_part, _, anchor = target.partition("#")
                page = (path.parent / file_part).resolve() if file_part else path
                rel = str(page.relative_to(repo)) if page.is_relative_to(repo) else str(page)
                if rel in PENDING:
                    continue
                if not page.exists():
                    problems.append("%s: link to %s: no such file" % (where, target))
                elif anchor:
                    check_anchor(repo, page, "#" + anchor, where, problems)
    for p in problems:
        print(p)
    if problems:
        print("\n%d dangling reference(s); fix the text or the path" % len(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
