#!/usr/bin/env bash
# Fails when the core (Sources/Zoetrope) names a file format, a codec library or a format's
# structures outside Formats/ImageFormat*.swift, where the built-in formats' identities
# live: the core knows no format (Docs/Architecture.md), and a threshold, a branch or a
# string that names one belongs in that codec's module.
#
#   Scripts/check-core-formats.sh
#
# Code (anything outside a comment) may never name one. Comments may, only in the files
# listed in Scripts/core-format-comments.txt and at most as many lines as listed there:
# documentation of a generic type that says what each format maps to it (DisposeMode: "GIF
# 2, APNG BACKGROUND"). The counts only go down: a new mention fails, a removed one asks
# for the list to be lowered.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import re, pathlib, sys
names = re.compile(
    r"gif|GIF|Gif|apng|APNG|Apng|png|PNG|Png|webp|WebP|WEBP|Webp|avif|AVIF|Avif|avis|"
    r"jpeg|JPEG|Jpeg|jpg|JPG|lzw|LZW|vp8|VP8|dav1d|lcms|giflib|libpng|libwebp|libavif|"
    r"libjpeg|turbojpeg|TurboJPEG|NETSCAPE|ANIMEXTS|acTL|fcTL|IDAT|IHDR|IEND|RIFF|ANMF")
allowed = {}
for line in pathlib.Path("Scripts/core-format-comments.txt").read_text().splitlines():
    line = line.split("#", 1)[0].strip()
    if line:
        path, count = line.rsplit(" ", 1)
        allowed[path] = int(count)
failures, counted = [], {}
for path in sorted(pathlib.Path("Sources/Zoetrope").rglob("*.swift")):
    rel = str(path)
    if re.fullmatch(r"Sources/Zoetrope/Formats/ImageFormat[^/]*\.swift", rel):
        continue
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not names.search(text):
            continue
        code, _, comment = text.partition("//")
        if names.search(code):
            failures.append(f"{rel}:{number}: code names a format: {text.strip()}")
        else:
            counted[rel] = counted.get(rel, 0) + 1
for rel, count in sorted(counted.items()):
    if count > allowed.get(rel, 0):
        failures.append(f"{rel}: {count} comment lines name a format, {allowed.get(rel, 0)} allowed "
                        "(Scripts/core-format-comments.txt): say it without the format")
for rel, count in sorted(allowed.items()):
    if counted.get(rel, 0) < count:
        failures.append(f"{rel}: {counted.get(rel, 0)} comment lines name a format, the list allows {count}: lower it")
if failures:
    print("\n".join(failures), file=sys.stderr)
    print(f"check-core-formats: {len(failures)} findings", file=sys.stderr)
    sys.exit(1)
print(f"check-core-formats: the core's code names no format ({sum(counted.values())} comment lines in {len(counted)} listed files)")
PY
