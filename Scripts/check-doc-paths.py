#!/usr/bin/env python3
"""Fails when the docs name a file that does not exist: every `path` in backticks that
looks like a file of the repository (a folder and a name with an extension, or a path
under one of the top-level folders) and every relative Markdown link, in README.md,
CHANGELOG.md, Scripts/README.md, Docs/, Examples/ and the DocC catalogues, and in the comments of the Swift
files. A path may be given from the
root or from any folder (`Zoetrope/Compositing/Compositor.swift`): it must then be the
end of exactly one file's path at least."""
import os, re, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)
files = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split()
folders = {os.path.dirname(f) for f in files}
for f in list(folders):
    while f:
        f = os.path.dirname(f)
        folders.add(f)
names = {os.path.basename(d) for d in folders if d}
tops = {"Sources", "Tests", "Scripts", "Docs", "Examples", "Benchmarks", "Plugins", "Fuzz", ".ci"}
extensions = (".swift", ".sh", ".py", ".md", ".c", ".h", ".txt", ".json", ".modulemap", ".yml")

def exists(path):
    path = path.rstrip("/")
    if path in files or path in folders:
        return True
    suffix = "/" + path
    return any(f.endswith(suffix) for f in files) or any(d.endswith(suffix) for d in folders)

docs = [f for f in files if f.endswith(".md") and (f in ("README.md", "CHANGELOG.md", "Scripts/README.md")
                                                   or f.startswith(("Docs/", "Examples/")) or ".docc/" in f)]
problems = []
checked = 0
sources = [f for f in files if f.endswith(".swift") and f.startswith(("Sources/", "Tests/", "Examples/", "Benchmarks/", "Plugins/"))]
for doc in docs + sources:
    text = open(doc, encoding="utf-8").read()
    if doc.endswith(".swift"):
        # Comments only: a doc comment or a note naming a file.
        text = "\n".join(l if l.lstrip().startswith("//") else "" for l in text.splitlines())
    # Code blocks hold commands and output, not references: skip them.
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for n, line in enumerate(text.splitlines(), 1):
        for token in re.findall(r"`([^`\s]+)`", line):
            token = token.split(":")[0] if re.search(r"\.\w+:\d", token) else token  # File.swift:12
            if token.startswith(("../", "/", "http", "-", "$", "~")) or "*" in token or "{" in token:
                continue
            parts = [p for p in token.split("/") if p]
            # Placeholders (`Sources/Zoetrope<Format>/`, `Fuzz/regressions/TARGET`) and what
            # runs create (`Fuzz/.work/`) are not files of the repository.
            if any("<" in p or p.isupper() or p.startswith(".work") for p in parts):
                continue
            # A path of this repository starts with one of its folders (a file elsewhere,
            # such as another project's `image/FrameTimeout.h`, is not checked).
            looks = "/" in token and bool(parts) and parts[0] in names and (token.endswith(extensions) or parts[0] in tops)
            if looks:
                checked += 1
            if looks and not exists(token):
                problems.append(f"{doc}:{n}: `{token}` names no file or folder")
        for target in re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", line):
            if target.startswith(("http", "mailto:", "../", "doc:")):
                continue
            checked += 1
            path = os.path.normpath(os.path.join(os.path.dirname(doc), target))
            if path not in files and path not in folders:
                problems.append(f"{doc}:{n}: link ({target}) names no file")
for p in problems:
    print(p)
if problems:
    sys.exit(1)
print(f"check-doc-paths: the {checked} file paths and links of {len(docs)} documents and the comments of {len(sources)} Swift files exist")
