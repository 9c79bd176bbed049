#!/bin/bash
# scripts/device/uwin-ncu.sh: Nsight Compute metrics (raw) of the regular window and the
# unstructured jwindow-plan (issue 3): laplap 512x512x64 double, one launch each (the second
# launch of the run: the first builds the chain plan).
# Needs pack/tsr-stencil, and ncu-table.py and stencil-common.sh beside it. Writes
# $OUT/uncu.tar.gz.
set -u
. "$(dirname "$0")/stencil-common.sh"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio
p() { local t=$1; shift
  timeout 120 "$NCU" --metrics $M --launch-skip 1 --launch-count 1 --kernel-name regex:'st_k_uwinp|st_k_jwin' --csv --page raw \
    "$TS" laplap --size 512x512x64 -q --runs 2 --warmup 0 --no-verify "$@" > "$W/$t.csv" 2> "$W/$t.err" || echo "ncu FAILED $t"; }
p reg --variant cuda/regular/jwindow --jpt 4 --threads 64x2x1
p reg128 --variant cuda/regular/jwindow --jpt 4 --threads 128x1x1
U="--variant cuda/unstr/jwindow-plan --chase no --order zcurve --jpt 4"
p k1 $U --kpt 1 --threads 128x1x1
p k4 $U --kpt 4 --threads 64x1x1
p k8 $U --kpt 8 --threads 64x1x1
p k4rm --variant cuda/unstr/jwindow-plan --chase no --order rowmajor --jpt 4 --kpt 4 --threads 64x1x1
python3 "$(dirname "$0")/ncu-table.py" "$W" "$M" reg reg128 k1 k4 k8 k4rm | tee "$W/summary.txt"
tar czf "$OUT/uncu.tar.gz" -C "$W" .
