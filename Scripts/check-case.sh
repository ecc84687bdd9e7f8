#!/usr/bin/env bash
# Fails when two tracked paths (files or the folders above them) differ only by case: on a
# case-insensitive volume (macOS's default) they would be one path, and the package could
# not be checked out.
set -euo pipefail
cd "$(dirname "$0")/.."
clashes=$(git ls-files | awk -F/ '{ p = ""; for (i = 1; i <= NF; i++) { p = (i == 1 ? $i : p "/" $i); print p } }' \
  | sort -u | awk '{ k = tolower($0); if (k in seen && seen[k] != $0) print seen[k] " ~ " $0; else seen[k] = $0 }')
if [ -n "$clashes" ]; then
  echo "check-case: paths that differ only by case:" >&2
  echo "$clashes" >&2
  exit 1
fi
echo "check-case: no two paths differ only by case"
