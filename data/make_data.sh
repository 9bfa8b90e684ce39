#!/usr/bin/env bash
# Reproduce the shipped dataset from the shared MMLU-Redux questions and the packaged models.
# Resumable: rerunning skips finished questions. Order: main condition (per-model shuffle,
# 2,000 questions) for every model, then the original-order control, then the full set.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
THREADS=${THREADS:-2}
SMALL="smollm2-135m-instruct gemma3-270m qwen2.5-coder-0.5b-instruct"
BIG="qwen2.5-coder-1.5b-instruct"
run() {  # condition model extra-args...
  local cond=$1 model=$2; shift 2
  $PY -m scoring run --model "$model" --questions redux --seed 0 --threads "$THREADS" --no-progress \
      --out "data/runs/$cond/$model" "$@"
}
for m in $SMALL; do run shuffled-2000 "$m" --n 2000 --shuffle per-model; done
for m in smollm2-135m-instruct gemma3-270m; do run original-2000 "$m" --n 2000 --shuffle original; done
run shuffled-2000 "$BIG" --n 2000 --shuffle per-model
run original-2000 qwen2.5-coder-0.5b-instruct --n 2000 --shuffle original
run original-2000 "$BIG" --n 2000 --shuffle original
for m in $SMALL $BIG; do run shuffled-all "$m" --shuffle per-model; done
$PY -m scoring build-data data
