#!/usr/bin/env bash
# Leak check of the codecs: the debug `zoetrope` tool, under valgrind's memcheck, converts a
# small GIF (written below) to GIF, APNG, WebP and AVIF and decodes every output back to PNG
# frames, so each format's encoder and decoder runs. Fails on any leak
# valgrind calls definite (lost memory no pointer reaches); "possibly lost" and "still
# reachable" blocks (the Swift runtime's caches, libraries' singletons) are not errors.
#
#   Scripts/check-leaks.sh          # after Scripts/setup.sh (valgrind); about a minute
#   ZOETROPE_TOOL=path/to/zoetrope Scripts/check-leaks.sh   # that build instead
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
command -v valgrind >/dev/null || { echo "check-leaks: valgrind is missing (Scripts/setup.sh installs it)" >&2; exit 1; }

if [ -n "${ZOETROPE_TOOL:-}" ]; then
  tool=$ZOETROPE_TOOL # another build of the tool (to check that a leak is caught)
else
  swift build --product zoetrope 2>&1 | grep -E "warning:|error:" && { echo "check-leaks: the build printed warnings or errors" >&2; exit 1; }
  tool="$(swift build --show-bin-path)/zoetrope"
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Valgrind 3.19 cannot read the DWARF 5 the Swift toolchain writes: a copy without it
# (symbol names stay, which is what the reports need).
objcopy --strip-debug "$tool" "$dir/zoetrope"
tool="$dir/zoetrope"

# The input, written here: see the generator's comment.
python3 - >"$dir/in.gif" <<'PY'
import sys
# A 16×16 GIF of three frames, 100 ms each, playing forever: frame 0 draws 255 colours of the
# global table, frame 1 255 others from a local table, frame 2 frame 0's again. Re-encoded as
# GIF, frame 1 keeps a local table and frame 2 uses the global one.
def lzw(indices):  # literal codes only, 9 bits, a clear code every 254 so the table stays below 512
    codes = []
    for k in range(0, len(indices), 254):
        codes += [256] + indices[k:k + 254]
    codes.append(257)
    bits = n = 0
    out = bytearray()
    for c in codes:
        bits |= c << n
        n += 9
        while n >= 8:
            out.append(bits & 0xFF); bits >>= 8; n -= 8
    if n: out.append(bits)
    blocks = bytearray([8])
    for k in range(0, len(out), 255):
        chunk = out[k:k + 255]
        blocks += bytes([len(chunk)]) + chunk
    return bytes(blocks + b"\0")
def table(f):
    return b"".join(bytes(f(i)) for i in range(256))
pixels = [k % 255 for k in range(256)]
gif = b"GIF89a" + bytes([16, 0, 16, 0, 0xF7, 0, 0]) + table(lambda i: (i, 255 - i, (i * 7) & 255))
gif += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
for local in (None, table(lambda i: ((i * 3) & 255, i, 128 ^ i)), None):
    gif += b"\x21\xf9\x04\x00\x0a\x00\x00\x00" + b"\x2c\0\0\0\0\x10\0\x10\0" + (b"\x87" + local if local else b"\0")
    gif += lzw(pixels)
gif += b"\x3b"
sys.stdout.buffer.write(gif)
PY

failures=0
# run NAME ARGS...: the tool under memcheck; a definite leak fails with valgrind's report.
run() {
  local name=$1; shift
  if ! valgrind --quiet --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
      --error-exitcode=99 --log-file="$dir/$name.log" "$tool" "$@" >"$dir/$name.out" 2>&1; then
    echo "check-leaks: $name: zoetrope $*" >&2
    cat "$dir/$name.out" "$dir/$name.log" >&2
    failures=$((failures + 1))
  fi
}

for f in gif png webp avif; do
  run "convert-$f" convert "$dir/in.gif" "$dir/out.$f" --quiet
  run "frames-$f" frames "$dir/out.$f" --output "$dir/frames-$f"
done
run info info "$dir/in.gif" "$dir/out.png" "$dir/out.webp" "$dir/out.avif"

if [ "$failures" -ne 0 ]; then
  echo "check-leaks: $failures run(s) leaked or failed" >&2
  exit 1
fi
echo "check-leaks: no definite leak in 9 runs (convert to and decode GIF, APNG, WebP, AVIF)"
