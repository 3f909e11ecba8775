#!/usr/bin/env bash
# Copies again ONNX's backend node tests of the ops irdiv evaluates into this folder.
#   testdata/onnx-node/refresh.sh ONNX_CHECKOUT [COMMIT]
# ONNX_CHECKOUT is a clone of https://github.com/onnx/onnx; COMMIT defaults to the one SOURCE
# names (node test data was removed from ONNX at a8f77b5b9, so take a commit before it).
# The test itself selects: every test whose model irdiv reads, imports and compiles is copied,
# the others are listed in SKIPPED. Then docs/onnx-node-tests.md is rewritten from the results.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: refresh.sh ONNX_CHECKOUT [COMMIT]}
commit=${2:-$(grep -o 'at commit [0-9a-f]*' "$here/SOURCE" | cut -d' ' -f3)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$src" archive "$commit" onnx/backend/test/data/node | tar -x -C "$tmp"
cd "$here/../.."
go test ./cmd/irdiv -run 'TestONNXNodeTests$' -count=1 -onnx-node-src "$tmp/onnx/backend/test/data/node" -docs
echo "refreshed testdata/onnx-node from $commit; if it differs, update SOURCE"
