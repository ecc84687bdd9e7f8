#!/usr/bin/env bash
# Builds Zoetrope's libFuzzer targets (Fuzz/) and runs one or all of them.
#
#   Scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...]   one target
#   Scripts/fuzz.sh all SECONDS [libFuzzer flags...]      every target, FUZZ_JOBS at a time
#   Scripts/fuzz.sh list                                  the target names
#
# Targets: gif apng webp avif jpeg registry gif-index apng-chunks avif-container webp-chunks incremental
# jpeg-incremental encode convert disk-cache-entry http-headers colour.
# Inputs: Fuzz/.work/corpus/TARGET (new inputs, kept between runs), the seeds (files of
# ../shared/corpus or $ZOETROPE_CORPUS, and the project's own fixtures, written by a fuzz
# executable) and Fuzz/regressions/TARGET (less those in Fuzz/regressions/pending.txt). Each run stops with a non-zero status on a crash,
# a leak, a timeout (10 s for one input), or out-of-memory (2 GiB); the input goes to
# Fuzz/crashes/TARGET/. A slow unit (an input libFuzzer reports as the slowest so far, past
# -report_slow_units seconds) is not a failure: it is moved to Fuzz/.work/slow/TARGET/ and
# counted in the summary, so a run on a machine whose cores are busy still passes; so is a
# timeout input that, run again alone, finishes within 10 s of CPU time (the timeout is
# wall-clock time, which busy cores stretch).
# Logs: Fuzz/.work/logs/TARGET.log; one summary line per target (runs, runs per second,
# cov:/ft: from libFuzzer's final status, crash files, slow units).
#
# Environment: FUZZ_JOBS (targets run at once by `all`; default: the number of cores),
# FUZZ_KEEP_GOING=1 (libFuzzer's fork mode: record crashes, timeouts and OOMs and go on;
# the status is still non-zero if any input was kept), FUZZ_WORK (the work folder, default
# Fuzz/.work: build, seeds, corpora, logs; a campaign in its own folder is not disturbed by
# other runs), ZOETROPE_CORPUS. Docs/Fuzzing.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="/opt/swift/usr/bin:$PATH"
targets=(gif apng webp avif jpeg registry gif-index apng-chunks avif-container webp-chunks incremental jpeg-incremental encode convert disk-cache-entry http-headers colour)

usage() { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
if [ "$1" = list ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
[ $# -ge 2 ] || usage
which=$1 seconds=$2
shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz: SECONDS must be a whole number, got '$seconds'" >&2; exit 2; }
if [ "$which" = all ]; then
    run=("${targets[@]}")
else
    [[ " ${targets[*]} " == *" $which "* ]] || { echo "fuzz: unknown target '$which' (Scripts/fuzz.sh list)" >&2; exit 2; }
    run=("$which")
fi

module() {  # gif-index -> FuzzGIFIndex
    case $1 in
        gif) echo FuzzGIF ;; apng) echo FuzzAPNG ;; webp) echo FuzzWebP ;; avif) echo FuzzAVIF ;; jpeg) echo FuzzJPEG ;;
        registry) echo FuzzRegistry ;; gif-index) echo FuzzGIFIndex ;; apng-chunks) echo FuzzAPNGChunks ;;
        avif-container) echo FuzzAVIFContainer ;; webp-chunks) echo FuzzWebPChunks ;; incremental) echo FuzzIncremental ;;
        jpeg-incremental) echo FuzzJPEGIncremental ;;
        encode) echo FuzzEncode ;; convert) echo FuzzConvert ;; disk-cache-entry) echo FuzzDiskCacheEntry ;;
        http-headers) echo FuzzHTTPHeaders ;; colour) echo FuzzColour ;;
    esac
}
families() {  # seed and dictionary families of a target
    case $1 in
        gif|gif-index) echo gif ;; apng|apng-chunks) echo png ;; webp|webp-chunks) echo webp ;;
        avif|avif-container) echo avif ;; jpeg|jpeg-incremental) echo jpeg ;;
        registry|incremental) echo gif png webp avif jpeg ;; convert) echo gif png webp avif ;;
        encode) echo encode ;;  # descriptions of frames (FuzzSeeds), no dictionary
        disk-cache-entry) ;;    # no seeds: the harness makes the header's checksum right
        http-headers) ;;        # no seeds: header values are short text
        colour) echo colour ;;  # declarations (FuzzSeeds): profiles, code points, gAMA/cHRM
    esac
}

work=$(mkdir -p "${FUZZ_WORK:-$root/Fuzz/.work}" && cd "${FUZZ_WORK:-$root/Fuzz/.work}" && pwd)
mkdir -p "$work/logs"

# 1. Build every target: instrumented for coverage (-sanitize=fuzzer) and AddressSanitizer,
#    -parse-as-library (libFuzzer's driver is the entry point), -enable-testing (the parser
#    targets reach internal types through @testable import), lld (gold warns on ASan symbols).
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing -Xswiftc -use-ld=lld)
echo "fuzz: building the targets in $work/build (log: $work/logs/build.log)"
build=(swift build --package-path "$root/Fuzz" --scratch-path "$work/build" "${flags[@]}")
if ! "${build[@]}" >"$work/logs/build.log" 2>&1; then
    grep -E "error:" "$work/logs/build.log" >&2 || tail -20 "$work/logs/build.log" >&2
    exit 1
fi
bin=$("${build[@]}" --show-bin-path)

# 2. Seeds: the corpus files of each family, and the project's fixtures.
corpus=${ZOETROPE_CORPUS:-$root/../shared/corpus}
rm -rf "$work/seeds"
mkdir -p "$work/seeds"/{gif,png,webp,avif,jpeg,encode,colour}
if [ -d "$corpus" ]; then
    copy() { find "$corpus/$1" -type f \( "${@:3}" \) ! -path '*.frames/*' -exec cp {} "$work/seeds/$2/" \; ; }
    copy gif gif -name '*.gif'
    copy apng png -name '*.png' -o -name '*.apng'
    copy webp webp -name '*.webp'
    copy avif avif -name '*.avif' -o -name '*.avifs'
    if [ -d "$corpus/jpeg" ]; then copy jpeg jpeg -name '*.jpg' -o -name '*.jpeg'; fi
else
    echo "fuzz: no corpus at $corpus; seeding from the fixtures only" >&2
fi
ZOETROPE_FUZZ_WRITE_SEEDS="$work/seeds" "$bin/FuzzGIF"
cat "$root"/Fuzz/dictionaries/*.dict >"$work/all.dict"
# The regression inputs, except those in Fuzz/regressions/pending.txt (their fix has not
# landed: they would stop the run at once, which tells nothing new).
rm -rf "$work/regressions"
for t in "${run[@]}"; do
    mkdir -p "$work/regressions/$t"
    for f in "$root/Fuzz/regressions/$t"/*; do
        [ -f "$f" ] || continue
        grep -qE "^$t/$(basename "$f")([[:space:]]|\$)" "$root/Fuzz/regressions/pending.txt" 2>/dev/null || cp "$f" "$work/regressions/$t/"
    done
done

# 3. Run.
unit_seconds=10   # one input's limit: wall-clock time for libFuzzer, then CPU time on a recheck
export SWIFT_BACKTRACE=enable=no   # libFuzzer and ASan report the crash; Swift's backtracer would only slow it
run_target() {
    local t=$1 log=$work/logs/$1.log
    shift
    local crashes=$root/Fuzz/crashes/$t slow=$work/slow/$t
    mkdir -p "$work/corpus/$t" "$crashes" "$slow"
    local dirs=("$work/corpus/$t" "$work/regressions/$t") dict=()
    for f in $(families "$t"); do dirs+=("$work/seeds/$f"); done
    case $t in
        registry|incremental|convert) dict=(-dict="$work/all.dict") ;;
        encode|disk-cache-entry|http-headers) ;;
        *) dict=(-dict="$root/Fuzz/dictionaries/$(families "$t").dict") ;;
    esac
    local before after status=0 slowed
    rm -f "$log.recheck"
    # Failures are the artifacts libFuzzer writes for a crash, a leak, a timeout or an OOM
    # (crash-, leak-, timeout-, oom-, ...); its slow-unit- files are reports, not failures.
    failures() { find "$crashes" -type f ! -name 'slow-unit-*' | sort; }
    before=$(failures)
    local mode=()
    [ "${FUZZ_KEEP_GOING:-0}" = 1 ] && mode=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    "$bin/$(module "$t")" "${dirs[@]}" "${dict[@]}" -max_total_time="$seconds" -timeout="$unit_seconds" -rss_limit_mb=2048 \
        -artifact_prefix="$crashes/" -print_final_stats=1 "${mode[@]}" "$@" >"$log" 2>&1 || status=$?
    slowed=$(find "$crashes" -maxdepth 1 -type f -name 'slow-unit-*' | wc -l)
    find "$crashes" -maxdepth 1 -type f -name 'slow-unit-*' -exec mv -f {} "$slow/" \;
    # libFuzzer's timeout is wall-clock time, which a machine whose cores are busy stretches:
    # a new timeout input runs once more alone, limited to the same 10 seconds of CPU time
    # (ulimit -t) instead. One that finishes within them is slow, not hung: it joins the slow
    # units. One that does not (a hang, a loop) stays in Fuzz/crashes and fails the run.
    local f recheck=0
    for f in $(comm -13 <(echo "$before") <(failures) | grep '/timeout-' || true); do
        # (In a shell of its own, which reports the kill in the log rather than here.)
        if bash -c 'ulimit -t "$1"; "$2" -timeout=0 "$3"; exit $?' recheck "$unit_seconds" "$bin/$(module "$t")" "$f" \
            >>"$log.recheck" 2>&1; then
            mv -f "$f" "$slow/"
            recheck=$((recheck + 1)) slowed=$((slowed + 1))
        fi
    done
    # A run that stopped only for timeouts that finished within the CPU limit passes.
    [ "$status" -ne 0 ] && [ "$recheck" -gt 0 ] && [ -z "$(comm -13 <(echo "$before") <(failures))" ] && status=0
    after=$(failures | grep -c . || true)
    before=$(echo "$before" | grep -c . || true)
    # Runs and coverage from libFuzzer's last status line: "#N DONE cov: C ft: F ... exec/s: E"
    # (runs and rate also in the final stats), or in fork mode "#N: cov: C ft: F ...
    # oom/timeout/crash: O/T/C time: Ss ...", whose exec/s is the last job's, so the rate is N/S.
    local last runs rate cov ft kept
    last=$(grep -E '^#[0-9]+:?[[:space:]].*cov: ' "$log" | tail -1 || true)
    runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1 || true)
    rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1 || true)
    if [ -z "$runs" ] && [ -n "$last" ]; then
        runs=$(sed -E 's/^#([0-9]+).*/\1/' <<<"$last")
        local elapsed
        elapsed=$(grep -oE 'time: [0-9]+s' <<<"$last" | grep -oE '[0-9]+' || true)
        [ -n "$elapsed" ] && [ "$elapsed" -gt 0 ] && rate=$((runs / elapsed))
    fi
    cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || true)
    ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || true)
    kept=$(grep -oE 'oom/timeout/crash: [0-9/]+' <<<"$last" | sed 's/.*: //' || true)
    local verdict=ok
    if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ] || [[ "$kept" =~ [1-9] ]]; then
        verdict="FAILED (status $status; see $log)"
    fi
    printf '%-15s runs: %-10s exec/s: %-6s cov: %-6s ft: %-7s new crash files: %-3s slow units: %-3s%s %s\n' \
        "$t" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$((after - before))" "${slowed:-0}" \
        "${kept:+ (oom/timeout/crash: $kept)}" "$verdict" | tee -a "$work/summary.txt"
    [ "$verdict" = ok ]
}

: >"$work/summary.txt"
rm -rf "$work/slow"   # this run's slow units only
echo "fuzz: ${run[*]} for ${seconds}s each"
failed=0
jobs_max=${FUZZ_JOBS:-$(nproc)}
running=0
for t in "${run[@]}"; do
    if [ "$running" -ge "$jobs_max" ]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
    run_target "$t" "$@" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
done
if [ "$failed" -ne 0 ]; then
    echo "fuzz: FAILED; inputs are in Fuzz/crashes/ (Docs/Fuzzing.md: how a crash becomes a regression test)" >&2
    exit 1
fi
slow_total=$(find "$work/slow" -type f | wc -l)
note=""
[ "$slow_total" -gt 0 ] && note=" ($slow_total slow units, reported in $work/slow, are not failures)"
echo "fuzz: no crash, leak, timeout or out-of-memory$note"
