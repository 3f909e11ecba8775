#!/usr/bin/env bash
# Regenerates onnx.pb.go, the Go types of ONNX's onnx.proto, with protoc and
# protoc-gen-go (the version google.golang.org/protobuf has in go.mod).
# onnx.proto is ONNX's (Apache License 2.0); it is not kept in this
# repository: the one Debian's python3-onnx installs is used, or $ONNX_PROTO.
set -euo pipefail
cd "$(dirname "$0")"
proto=${ONNX_PROTO:-$(dpkg -L python3-onnx 2>/dev/null | grep '/onnx/onnx\.proto$' | head -1 || true)}
if [ -z "$proto" ] || [ ! -f "$proto" ]; then
	echo "onnx.proto not found: apt-get install python3-onnx, or set ONNX_PROTO" >&2
	exit 1
fi
command -v protoc >/dev/null || { echo "protoc not found: apt-get install protobuf-compiler" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$proto" "$tmp/onnx.proto"
(cd ../../.. && go build -o "$tmp/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go)
protoc --plugin=protoc-gen-go="$tmp/protoc-gen-go" -I "$tmp" \
	--go_out=. --go_opt=paths=source_relative \
	--go_opt=Monnx.proto=github.com/irdiv/irdiv/onnx/internal/onnxpb \
	"$tmp/onnx.proto"
