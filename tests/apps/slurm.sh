#!/bin/sh
# slurm.sh: the batch templates of scripts/slurm/ on a real Slurm started here
# on localhost (Debian's slurmctld, slurmd and slurm-client; srun starts
# OpenMPI through PMIx, libpmix-dev). The configuration lives in a temporary
# directory named by SLURM_CONF: no munge (auth/none, cred/none), no cgroups,
# free ports, a node with this machine's cores and two pretend GPUs, and
# EnforcePartLimits=ALL so that an impossible request is refused at submission
# instead of pending. Each template is filled in as its comments say and
# submitted with `sbatch --wait`; a job counts only with its state, its exit
# status, its output files and an idle node after it. The CPU templates must
# complete with real rows; a broken input, a run that measures nothing and the
# GPU template on a machine without a GPU (or a build without CUDA) must be
# recorded FAILED. Skipped, with the reason, where Slurm is missing or cannot
# start. Daemons and jobs are removed at the end, also on failure or a signal.
B=${TSR_TOP_BUILDDIR:?set by the test harness}
S=${TSR_TOP_SRCDIR:?set by the test harness}
PATH=$PATH:/usr/sbin:/sbin; export PATH
skip() { echo "1..0 # SKIP $*"; exit 0; }
for t in slurmctld slurmd sbatch scontrol sinfo scancel squeue timeout; do
  command -v $t >/dev/null 2>&1 ||
    skip "$t not found (Debian packages slurmctld, slurmd, slurm-client, libpmix-dev)"
done
[ -f /usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmix.so ] || [ -n "$(find /usr/lib* -name mpi_pmix.so 2>/dev/null | head -1)" ] ||
  skip "Slurm's PMIx plugin mpi_pmix.so not found (Debian package slurm-wlm-basic-plugins)"

d=$(mktemp -d "${TMPDIR:-/tmp}/tsr-slurm.XXXXXX") || exit 1
ctld=; slurmd=
cleanup() {
  if [ -n "$ctld" ]; then
    # shellcheck disable=SC2046
    scancel --quiet --full $(squeue -h -o %i 2>/dev/null) 2>/dev/null
    n=0
    while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ $n -lt 20 ]; do sleep 0.5; n=$((n + 1)); done
  fi
  for p in $slurmd $ctld; do kill "$p" 2>/dev/null; done
  for p in $slurmd $ctld; do
    n=0
    while kill -0 "$p" 2>/dev/null && [ $n -lt 20 ]; do sleep 0.5; n=$((n + 1)); done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$d"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP
trap 'exit 141' PIPE

# ---------------------------------------------------------------- the cluster
port() { # a free TCP port on localhost
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
    echo $((20000 + ($$ + $1) % 20000))
}
host=$(uname -n | cut -d. -f1)
node=tsrnode
hw=$(slurmd -C 2>/dev/null | sed -n 's/^NodeName=[^ ]* //p' | sed 's/ RealMemory=[0-9]*//')
cpus=$(printf '%s\n' "$hw" | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p')
[ -n "$cpus" ] || skip "slurmd -C does not describe this machine"
me=$(id -un)
mkdir -p "$d/state" "$d/spool" "$d/jobs"
cat >"$d/slurm.conf" <<EOF
ClusterName=tsrtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(port 1)
SlurmdPort=$(port 2)
SlurmUser=$me
SlurmdUser=$me
AuthType=auth/none
CredType=cred/none
MpiDefault=pmix
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
EnforcePartLimits=ALL
ReturnToService=2
MailProg=/bin/true
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
GresTypes=gpu
NodeName=$node NodeHostname=$host NodeAddr=127.0.0.1 $hw Gres=gpu:2 State=UNKNOWN
PartitionName=tsrtest Nodes=$node MaxTime=UNLIMITED State=UP
EOF
# two pretend GPUs, for the GPU template's resource request
printf 'AutoDetect=off\nName=gpu File=/dev/null\nName=gpu File=/dev/zero\n' >"$d/gres.conf"
SLURM_CONF=$d/slurm.conf; export SLURM_CONF
# the jobs run this build's programs, whatever the caller's environment says
unset SLURM_JOB_ID SLURM_JOBID TSR_SRUN_MPI RANKS RUN_DIR

slurmctld -D -c >"$d/slurmctld.out" 2>&1 &
ctld=$!
slurmd -D -N "$node" >"$d/slurmd.out" 2>&1 &
slurmd=$!
state=
n=0
while [ $n -lt 60 ]; do
  kill -0 $ctld 2>/dev/null && kill -0 $slurmd 2>/dev/null || break
  state=$(sinfo -h -n "$node" -o %t 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 0.5; n=$((n + 1))
done
if [ "$state" != idle ]; then
  why=$(cat "$d/slurmctld.out" "$d/slurmd.out" "$d/slurmctld.log" "$d/slurmd.log" 2>/dev/null | grep -iE 'error|fatal' | tail -1)
  skip "Slurm did not start here (node state '${state:-none}'${why:+: $why})"
fi

echo "1..8"
i=0
ok() {
  i=$((i + 1))
  if [ "$1" = 0 ]; then echo "ok $i - $2"; else
    echo "not ok $i - $2"
    [ -f "$d/why" ] && sed 's/^/# /' "$d/why"
    for f in $job_out; do [ -f "$f" ] && { echo "# --- $f"; tail -20 "$f" | sed 's/^/# /'; }; done
  fi
  rm -f "$d/why"; job_out=
}
why() { echo "$*" >>"$d/why"; return 1; }

# fill TEMPLATE OUT SED-SCRIPT: the template as a user fills it in (partition,
# ranks per node within this node's cores, then the job's own lines)
per=2; [ "$cpus" -lt 2 ] && per=$cpus
fill() {
  sed -e 's|^##SBATCH --partition=.*|#SBATCH --partition=tsrtest|' \
      -e "s|^#SBATCH --ntasks-per-node=.*|#SBATCH --ntasks-per-node=$per|" \
      -e 's|^#SBATCH --cpus-per-task=.*|#SBATCH --cpus-per-task=1|' \
      -e "$3" "$S/scripts/slurm/$1" >"$d/jobs/$2"
}
# submit SCRIPT [ENV=VALUE...]: sbatch --wait from $d/jobs; sets rc, id, jstate
submit() {
  s=$1; shift
  out=$(cd "$d/jobs" && env TSR_PREFIX="$B" "$@" timeout 150 sbatch --wait --parsable "$s" 2>"$d/sbatch.err")
  rc=$?
  id=$(printf '%s\n' "$out" | head -1 | cut -d';' -f1)
  jstate=$(scontrol -o show job "$id" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  jtres=$(scontrol -o show job "$id" 2>/dev/null | tr ' ' '\n' | grep -i '^tres' | tr '\n' ' ')
  [ $rc -eq 124 ] && { scancel --full "$id" 2>/dev/null; why "sbatch --wait timed out"; }
  cat "$d/sbatch.err" >>"$d/why"
}
node_idle() {
  n=0
  while [ $n -lt 20 ]; do
    st=$(sinfo -h -n "$node" -o %t 2>/dev/null)
    [ "$st" = idle ] && return 0
    sleep 0.5; n=$((n + 1))
  done
  why "node state after the job: '$st' ($(scontrol -o show node $node | sed -n 's/.*Reason=//p'))"
}
# no_gpus: a CPU job holds no GPU (the node has two pretend ones)
no_gpus() {
  case $jtres in *gpu*) why "job $id asked for GPUs: $jtres" ;; esac
}
# csv_ranks FILE: the ranks column of every row that has a time
csv_ranks() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
           $c["median_us"] + 0 > 0 { print $c["ranks"] }' "$1" | sort -n | uniq | tr '\n' ' '
}

# ---- 1: an impossible request is refused at submission, not left pending
fill cpu.sbatch big.sbatch ''
(cd "$d/jobs" && TSR_PREFIX="$B" timeout 30 sbatch --ntasks-per-node=$((cpus * 4)) big.sbatch) >"$d/why" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ -z "$(squeue -h -o %i)" ] && grep -q 'More processors requested than permitted' "$d/why"
ok $? "more ranks than the node has cores: refused by sbatch (EnforcePartLimits=ALL)"

# ---- 2: cpu.sbatch, the stencil's CPU variants
fill cpu.sbatch cpu.sbatch \
  's|^APP=.*|APP=(tsr-stencil laplap --size 32x32x8 --iterations 2 --runs 3 --device cpu --variant "cpu/*")|'
submit cpu.sbatch
job_out="$d/jobs/tessera-cpu-$id.out"
r=$d/jobs/tessera-$id/result.csv
{ [ $rc -eq 0 ] || why "sbatch --wait: exit $rc"; } &&
  { [ "$jstate" = COMPLETED ] || why "job $id: $jstate, expected COMPLETED"; } &&
  { [ "$(csv_ranks "$r")" = "$per " ] || why "$r: no timed rows at $per ranks"; } &&
  { [ "$(grep -c ',PASS,' "$r")" -ge 3 ] || why "$r: fewer than 3 verified rows"; } &&
  { grep -q '^done: results in' "$job_out" || why "no 'done' line in the job's output"; } && no_gpus && node_idle
ok $? "cpu.sbatch: COMPLETED, $per ranks and no GPU, verified rows in result.csv"

# ---- 3: sweep.sbatch on one node: 1 and 2 ranks, sweep.csv has both
fill sweep.sbatch sweep.sbatch \
  "s|^#SBATCH --nodes=.*|#SBATCH --nodes=1|; s|^APP=.*|APP=(tsr-airfoil --size 20x30 --iterations 10 --runs 2 --device cpu --variant cpu/ref)|"
submit sweep.sbatch
job_out="$d/jobs/tessera-sweep-$id.out"
want="1 "; [ $per -ge 2 ] && want="1 2 "
r=$d/jobs/tessera-$id
{ [ $rc -eq 0 ] || why "sbatch --wait: exit $rc"; } &&
  { [ "$jstate" = COMPLETED ] || why "job $id: $jstate, expected COMPLETED"; } &&
  { [ "$(csv_ranks "$r/sweep.csv")" = "$want" ] || why "sweep.csv: timed rows at ranks '$(csv_ranks "$r/sweep.csv")', expected '$want'"; } &&
  { [ "$(csv_ranks "$r/ranks-1.csv")" = "1 " ] || why "ranks-1.csv: not one rank"; } &&
  { [ "$(grep -c '^app,' "$r/sweep.csv")" -eq 1 ] || why "sweep.csv: not one header"; } && no_gpus && node_idle
ok $? "sweep.sbatch: COMPLETED, one CSV per rank count ($want) and sweep.csv"

# ---- 4: a broken input: the program fails, the job is FAILED
echo "not an HDF5 file" >"$d/broken.h5"
fill cpu.sbatch broken.sbatch "s|^APP=.*|APP=(tsr-stencil laplap -i $d/broken.h5 --iterations 2 --device cpu)|"
submit broken.sbatch
job_out="$d/jobs/tessera-cpu-$id.out"
{ [ $rc -ne 0 ] && [ $rc -ne 124 ] || why "sbatch --wait: exit $rc, expected the job's failure"; } &&
  { [ "$jstate" = FAILED ] || why "job $id: ${jstate:-unknown}, expected FAILED"; } &&
  { grep -q "broken.h5" "$job_out" || why "the output does not name the broken file"; } && node_idle
ok $? "cpu.sbatch with a broken input: FAILED, the error names the file"

# ---- 5, 6: a program that exits 0 having measured nothing, or with a row
# that failed verification (a stand-in program writing such a CSV): FAILED
mkdir -p "$d/fake/bin"
cat >"$d/fake/bin/tsr-fake" <<'EOF'
#!/bin/sh
# writes the CSV of $FAKE_ROWS to the file after --csv, and exits 0
while [ $# -gt 0 ]; do [ "$1" = --csv ] && csv=$2; shift; done
printf 'app,variant,device,ranks,median_us,min_us,verify,note\n' >"$csv"
case $FAKE_ROWS in
  nothing) printf 'fake,cpu/a,CPU (1 thread),2,,,-,not run: no such thing\n' >>"$csv" ;;
  failed) printf 'fake,cpu/a,CPU (1 thread),2,10.0,9.0,PASS,\nfake,cpu/b,CPU (1 thread),2,"12.5",9.0,FAIL,"max err 1, tol 0"\n' >>"$csv" ;;
esac
EOF
chmod +x "$d/fake/bin/tsr-fake"
fill cpu.sbatch fake.sbatch 's|^APP=.*|APP=(tsr-fake)|'
for what in nothing failed; do
  submit fake.sbatch TSR_PREFIX="$d/fake" FAKE_ROWS=$what
  job_out="$d/jobs/tessera-cpu-$id.out"
  case $what in nothing) msg="nothing measured" ;; failed) msg="failed verification: cpu/b" ;; esac
  { [ $rc -ne 0 ] && [ $rc -ne 124 ] || why "sbatch --wait: exit $rc, expected the job's failure"; } &&
    { [ "$jstate" = FAILED ] || why "job $id: ${jstate:-unknown}, expected FAILED"; } &&
    { grep -q "$msg" "$job_out" || why "the output does not say '$msg'"; } && node_idle
  ok $? "cpu.sbatch, a program exiting 0 with $what in its CSV: FAILED ('$msg')"
done

# ---- 7: gpu.sbatch. With no GPU behind the request (a build without CUDA, or
# no device): FAILED, not COMPLETED with a CSV of skipped rows. With a GPU and
# a CUDA build: COMPLETED, rows measured on the GPU.
fill gpu.sbatch gpu.sbatch \
  "s|^#SBATCH --gpus-per-node=.*|#SBATCH --gpus-per-node=$per|; s|^APP=.*|APP=(tsr-stencil laplap --size 32x32x8 --iterations 2 --runs 3 --device cuda --variant 'cuda/regular/*')|"
submit gpu.sbatch
job_out="$d/jobs/tessera-gpu-$id.out"
if grep -q '^#define TSR_HAVE_CUDA 1' "$B/config.h" && nvidia-smi -L >/dev/null 2>&1; then
  r=$d/jobs/tessera-$id/result.csv
  { [ $rc -eq 0 ] || why "sbatch --wait: exit $rc"; } &&
    { [ "$jstate" = COMPLETED ] || why "job $id: $jstate, expected COMPLETED"; } &&
    { grep -q 'measured, none failed' "$job_out" || why "no measured GPU rows"; } && node_idle
  ok $? "gpu.sbatch on this machine's GPU: COMPLETED, rows measured on the GPU"
else
  { [ $rc -ne 0 ] && [ $rc -ne 124 ] || why "sbatch --wait: exit $rc, expected the job's failure"; } &&
    { [ "$jstate" = FAILED ] || why "job $id: ${jstate:-unknown}, expected FAILED"; } &&
    { grep -q 'nothing ran\|no CUDA device' "$job_out" || why "the output does not say why nothing ran"; } && node_idle
  ok $? "gpu.sbatch without a usable GPU: accepted, then FAILED (nothing ran)"
fi

# ---- 8: the daemons are still up and the queue is empty
[ -z "$(squeue -h -o %i)" ] && kill -0 $ctld && kill -0 $slurmd
ok $? "slurmctld and slurmd still running, no job left in the queue"
