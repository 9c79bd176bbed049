#!/bin/bash
# scripts/device/uproto-ncu.sh: why jwindow-proto on row-major storage is slower than the
# regular window (issue 3): Nsight Compute metrics (raw, one launch each) of the regular window,
# jwindow-proto's kernel (st_k_uwinm: the rectangle of matching chains through the prototype,
# the listed others through the plan) and jwindow-plan on z-curves, laplap 512x512x64 double;
# then 10-step timings at 512x512x64 (508 updated columns: rows of the unstructured row-major
# storage not 128-byte aligned) against 516x512x64 (512 columns: aligned). Session 7 profiled
# its two kernels (st_k_uwinc, st_k_uwinp over tiles) with the same metrics
# (docs/data/stencil/s7/wtiles-ncu). Needs pack/tsr-stencil, and ncu-table.py and
# stencil-common.sh beside it. Writes $OUT/uproto-ncu.tar.gz.
set -u
. "$(dirname "$0")/stencil-common.sh"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,l1tex__throughput.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
p() { local t=$1 re=$2; shift 2
  timeout 120 "$NCU" --metrics $M --launch-skip 1 --launch-count 1 --kernel-name regex:"$re" --csv --page raw \
    "$TS" laplap --size 512x512x64 -q --runs 2 --warmup 0 --no-verify "$@" > "$W/$t.csv" 2> "$W/$t.err" || echo "ncu FAILED $t"; }
p reg 'st_k_jwin' --variant cuda/regular/jwindow --jpt 8 --threads 64x2x1
R="--variant cuda/unstr/jwindow-proto --chase no --order rowmajor"
p proto4 'st_k_uwinm' $R --jpt 4 --kpt 1 --threads 32x4x1
p proto8 'st_k_uwinm' $R --jpt 8 --kpt 1 --threads 64x2x1
p proto4k2 'st_k_uwinm' $R --jpt 4 --kpt 2 --threads 32x4x1
p planzc 'st_k_uwinp' --variant cuda/unstr/jwindow-plan --chase no --order zcurve --jpt 4 --kpt 16 --threads 32x2x1
python3 "$(dirname "$0")/ncu-table.py" "$W" "$M" reg proto4 proto8 proto4k2 planzc | tee "$W/summary.txt"
for sz in 512x512x64 516x512x64; do
  r t-reg-$sz laplap --size $sz --variant cuda/regular/jwindow --jpt 4,8 --threads 64x2x1,32x4x1 --iterations 10
  r t-proto1-$sz laplap --size $sz $R --jpt 4,8 --kpt 1 --threads 32x2x1,32x4x1,64x2x1 --iterations 10
  r t-proto2-$sz laplap --size $sz $R --jpt 4,8 --kpt 2 --threads 32x2x1,32x4x1,64x2x1 --iterations 10
  r t-plan-$sz laplap --size $sz --variant cuda/unstr/jwindow-plan --chase no --order rowmajor,zcurve --jpt 4 --kpt 16 --threads 32x2x1 --iterations 10
done
for f in "$W"/t-*.csv; do echo "$(basename $f .csv) $(awk -F, 'NR>1 && $24=="PASS"{print $13, $1, $9"x"$10"x"$11, $25}' $f | sort -n | head -3 | tr '\n' ' ')"; done
tar czf "$OUT/uproto-ncu.tar.gz" -C "$W" .
