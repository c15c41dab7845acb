#!/usr/bin/env bash
# Coverage-guided fuzzing of everything TiGrIS reads from outside (docs/fuzzing.md):
#   fuzz_plan         .tgrs bytes -> runtime verifier -> inspect JSON -> executor
#   fuzz_plan_fields  the same, mutating the plan's fields through its schema
#   fuzz_onnx         ONNX bytes -> load, normalize, analyze, plan, emit, re-verify
#   fuzz_tflite       .tflite bytes -> the same through the TFLite front end
#   fuzz_npy          .npy bytes -> the CLI's reader, and back
#   fuzz_target       target YAML (--target) -> the library's parser (yaml-cpp)
# Built with clang, libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer in their own
# folder (build-fuzz), incrementally. Each target starts from fuzz/corpus/ and keeps what it
# learns in build-fuzz/corpus/<target>; a crash, leak, timeout or sanitizer report stops
# the run with the input saved in build-fuzz/artifacts/ (add it to fuzz/regressions/<target>
# once fixed: ctest replays it from then on).
#
# Usage: scripts/fuzz.sh [TARGET|all] [SECONDS]    default: all, 60 s per target
#        scripts/fuzz.sh --smoke                    what CI runs (scripts/test.sh): every target
#                                                   from its seeds alone, a fixed seed and a
#                                                   fixed number of runs (under 60 s each), so
#                                                   a run is repeatable
#        scripts/fuzz.sh --coverage                 line coverage of the plan verifier and
#                                                   the ONNX loader from the corpora (llvm-cov)
# Environment: TIGRIS_FUZZ_JOBS (parallel fuzzing processes per target, default 1).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
targets_all=(plan plan_fields onnx tflite npy target)

configure_and_build() {  # DIR OPTION TARGETS...
  local dir=$1 option=$2
  shift 2
  if [[ ! -f "$dir/build.ninja" ]]; then
    CC=clang CXX=clang++ cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-D$option=ON" >/dev/null
  fi
  cmake --build "$dir" --parallel "$(nproc)" --target "$@"
}

corpus_of() {  # the seed folder of a target
  case $1 in plan_fields) echo "$root/fuzz/corpus/plan" ;; *) echo "$root/fuzz/corpus/$1" ;; esac
}

if [[ "${1:-}" == "--coverage" ]]; then
  build="$root/build-coverage"
  configure_and_build "$build" TIGRIS_FUZZ_COVERAGE replay_plan replay_plan_fields replay_onnx \
    replay_tflite replay_npy replay_target
  profiles="$build/profiles"
  rm -rf "$profiles" && mkdir -p "$profiles"
  for t in "${targets_all[@]}"; do
    seeds=("$(corpus_of "$t")")
    [[ -d "$root/build-fuzz/corpus/$t" ]] && seeds+=("$root/build-fuzz/corpus/$t")
    LLVM_PROFILE_FILE="$profiles/$t-%m.profraw" "$build/fuzz/replay_$t" "${seeds[@]}" >/dev/null
  done
  llvm-profdata merge -o "$build/fuzz.profdata" "$profiles"/*.profraw
  echo "== line coverage from the corpora (fuzz/corpus + build-fuzz/corpus)"
  llvm-cov report -instr-profile="$build/fuzz.profdata" "$build/fuzz/replay_plan" \
    -object "$build/fuzz/replay_plan_fields" -object "$build/fuzz/replay_onnx" \
    -object "$build/fuzz/replay_tflite" \
    "$root/runtime/src/plan_verify.c" "$root/runtime/src/schema_walk.c" "$root/runtime/src/plan_reader.c" \
    "$root"/libtigris/onnx/*.cc "$root"/libtigris/tflite/*.cc
  exit 0
fi

smoke=0
if [[ "${1:-}" == "--smoke" ]]; then
  smoke=1
  shift
fi
# Runs per target in --smoke: about 40 s each under ASan on the two-core machine.
declare -A smoke_runs=([plan]=8000 [plan_fields]=4000 [onnx]=60000 [tflite]=30000 [npy]=1000000 [target]=100000)
target="${1:-all}"
seconds="${2:-60}"
if [[ "$target" == "all" ]]; then targets=("${targets_all[@]}"); else targets=("$target"); fi
for t in "${targets[@]}"; do
  [[ " ${targets_all[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t' (${targets_all[*]})" >&2; exit 2; }
done

build="$root/build-fuzz"
configure_and_build "$build" TIGRIS_FUZZ "${targets[@]/#/fuzz_}"
mkdir -p "$build/artifacts"
status=0
for t in "${targets[@]}"; do
  work="$build/corpus/$t"
  limits=(-max_total_time="$seconds")
  if ((smoke)); then
    work="$build/smoke-corpus/$t"  # from the seeds alone, so every run is the same
    rm -rf "$work"
    limits=(-seed=1 -runs="${smoke_runs[$t]}" -max_total_time=120)
  fi
  mkdir -p "$work"
  dict=()
  case $t in plan | plan_fields) dict=(-dict="$root/fuzz/dict/tgrs.dict") ;; onnx) dict=(-dict="$root/fuzz/dict/onnx.dict") ;; esac
  echo "== fuzz_$t ${limits[*]} (corpus $work, seeds $(corpus_of "$t"))"
  # -malloc_limit_mb: one allocation over 2 GiB (a model that makes the compiler allocate
  # gigabytes) is a finding. -rss_limit_mb: the process's resident memory; ASan's
  # quarantine and allocator caches grow it over millions of inputs (fuzz_onnx passed
  # 1.7 GiB after 1.2 million), so it is bounded higher.
  # -timeout: one input taking more than 10 s is a finding (a hang or a quadratic blow-up).
  log="$build/fuzz_$t.log"
  jobs=()
  if ((${TIGRIS_FUZZ_JOBS:-1} > 1)); then
    jobs=(-jobs="$TIGRIS_FUZZ_JOBS" -workers="$TIGRIS_FUZZ_JOBS")  # logs: build-fuzz/fuzz-N.log
  fi
  if ! (cd "$build" && "$build/fuzz/fuzz_$t" "$work" "$(corpus_of "$t")" "${dict[@]}" \
      "${limits[@]}" -timeout=10 -malloc_limit_mb=2048 -rss_limit_mb=4096 -print_final_stats=1 \
      "${jobs[@]}" -artifact_prefix="$build/artifacts/$t-" >"$log" 2>&1); then
    echo "fuzz_$t FAILED: see $log and $build/artifacts/" >&2
    grep -E "ERROR|SUMMARY|Test unit written" "$log" >&2 || tail -20 "$log" >&2
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" | sed 's/^/   /' || true
done
exit $status
