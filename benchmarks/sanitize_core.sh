#!/usr/bin/env bash
# The compiled core under AddressSanitizer and UndefinedBehaviorSanitizer (issue 35).
#
#   PYTHON=.venv/bin/python benchmarks/sanitize_core.sh [SCRATCH_DIR] [FUZZ_INPUTS]
#
# Copies the working tree (no .git, no built modules) to SCRATCH_DIR (default
# /tmp/shanghai-sanitize), builds every solver/native/src/<name>.cpp there with
# -fsanitize=address,undefined, then runs the native tests (tests/native: the
# differential tests, native == pure over every entry point, RSS) and a seeded
# fuzz run (benchmarks.fuzz_core --random FUZZ_INPUTS, default 30 an entry point)
# on that build. Python itself is not built with ASan, so its runtime is loaded
# first with LD_PRELOAD; leak detection is off (CPython's own allocations at exit
# are not ours; benchmarks.rss_core is the leak check); any UBSan report halts.
# -fno-wrapv: CPython's CFLAGS carry -fwrapv, which makes signed overflow defined
# and so invisible to UBSan. Exit 0 when the build, the tests and the fuzz run
# pass with no sanitizer report. See docs/native.md, "Safety".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${1:-/tmp/shanghai-sanitize}
inputs=${2:-30}
python=${PYTHON:-python}
rm -rf "$scratch"
mkdir -p "$scratch"
tar -C "$root" --exclude=.git --exclude=.venv --exclude=build --exclude='*.so' -cf - . | tar -C "$scratch" -xf -
cd "$scratch"
SHANGHAI_NATIVE_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-wrapv -g" \
    "$python" setup.py -q build_ext --inplace
shopt -s nullglob
built=(solver/native/_*.so)
echo "sanitize_core: ${#built[@]} compiled module(s) built with ASan + UBSan: ${built[*]:-none}"
# libstdc++ preloaded too: else ASan's __cxa_throw interceptor finds no real __cxa_throw (python is not
# linked with it) and the first C++ exception the core throws ends the run with "CHECK failed:
# asan_interceptors.cpp ... real___cxa_throw" (seen on the first run with the ports built).
LD_PRELOAD="$(${CXX:-g++} -print-file-name=libasan.so):$(${CXX:-g++} -print-file-name=libstdc++.so)"
export LD_PRELOAD
export ASAN_OPTIONS=detect_leaks=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export PYTHONPATH="$scratch"
# the RSS tests are left out: ASan keeps freed memory in quarantine, so RSS grows (rss_core is the leak check)
"$python" -m pytest -q -s -p no:cacheprovider tests/native -k "not rss_is_flat"
"$python" -m benchmarks.fuzz_core --random "$inputs"
echo "sanitize_core: passed, no sanitizer report"
