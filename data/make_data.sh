#!/usr/bin/env bash
# Reproduce the shipped dataset from the shared MMLU-Redux questions and the packaged models.
# Resumable: rerunning skips finished questions. Order: the main condition (per-model shuffle,
# 2,000 questions) for every model first, then the original-order control, then the full set, then HumanEval
# generation, then the cloze condition.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
THREADS=${THREADS:-1}  # one thread per process measured faster on this 2-core machine
MODELS="smollm2-135m-instruct gemma3-270m qwen2.5-coder-0.5b-instruct qwen2.5-coder-1.5b-instruct"
run() {  # condition model extra-args...
  local cond=$1 model=$2; shift 2
  # the shipped conditions were scored with both letter spellings and the v1 filter: keep them reproducible
  $PY -m scoring run --model "$model" --questions redux --seed 0 --threads "$THREADS" --no-progress \
      --letter-spelling both --cross-reference-filter v1 --out "data/runs/$cond/$model" "$@"
}
for m in $MODELS; do run shuffled-2000 "$m" --n 2000 --shuffle per-model; done
for m in $MODELS; do run original-2000 "$m" --n 2000 --shuffle original; done
# the 2,000 are a subset of all questions: their rows are copied, not scored again
for m in $MODELS; do run shuffled-all "$m" --shuffle per-model --reuse-rows-from "data/runs/shuffled-2000/$m"; done
# HumanEval: sampled completions (n = 20 for the 0.5B, n = 10 for the 1.5B), one greedy each, then execution
gen() {  # condition model extra-args...
  local cond=$1 model=$2; shift 2
  $PY -m scoring generate --model "$model" --seed 0 --threads "$THREADS" --no-progress \
      --out "data/runs/$cond/$model" "$@"
  $PY -m scoring execute "data/runs/$cond/$model" --no-progress
}
gen humaneval-sampled qwen2.5-coder-0.5b-instruct --samples 20 --temperature 0.8 --top-p 0.95 --max-new-tokens 256
gen humaneval-greedy qwen2.5-coder-0.5b-instruct --samples 1 --temperature 0 --max-new-tokens 256
gen humaneval-greedy qwen2.5-coder-1.5b-instruct --samples 1 --temperature 0 --max-new-tokens 256
gen humaneval-sampled qwen2.5-coder-1.5b-instruct --samples 10 --temperature 0.8 --top-p 0.95 --max-new-tokens 256
# the answer-text (cloze) format on the same 2,000 questions (options are not shown, so the order does not matter)
for m in $MODELS; do
  $PY -m scoring run --model "$m" --questions redux --n 2000 --seed 0 --threads "$THREADS" --no-progress \
      --format cloze --shuffle original --cross-reference-filter v1 --out "data/runs/cloze-2000/$m"
done
$PY -m tools build-data data
