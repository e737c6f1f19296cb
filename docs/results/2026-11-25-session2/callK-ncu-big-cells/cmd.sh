#!/usr/bin/env bash
set -u
cd "$(dirname "$0")/.."; c=$PWD/.devcarry
mkdir -p $c/bin && tar xzf $c/simbin.tgz -C $c/bin
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
export HINESBATCH_SHARED_DIR=$c/shared
source $c/ncu-part.sh
cd $OUT && tar czf all.tgz ncu && rm -rf ncu
