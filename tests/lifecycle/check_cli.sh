#!/usr/bin/env bash
# The lifecycle commands as users run them: validate, expand, job, and schedule on Jobs.
# usage: check_cli.sh VCSCHED DATA_DIR CLUSTER_YAML
set -uo pipefail
vcsched=$1 data=$2 cluster=$3
fail=0
check() {  # check NAME EXPECTED_STATUS PATTERN -- command...
  local name=$1 want=$2 pattern=$3; shift 4
  local out status
  out=$("$@" 2>&1); status=$?
  if [ "$status" != "$want" ]; then echo "FAIL $name: exit $status, expected $want"; echo "$out" | tail -20; fail=1; return; fi
  if ! grep -qE -- "$pattern" <<<"$out"; then echo "FAIL $name: output lacks /$pattern/"; echo "$out" | tail -20; fail=1; return; fi
  echo "ok   $name"
}
valid=$(find "$data" -name '*.yaml' -not -path '*/invalid_jobs/*' | sort)
check "validate accepts every valid manifest" 0 " 0 rejected" -- "$vcsched" validate $valid
for f in "$data"/volcano-examples/invalid_jobs/*.yaml; do
  check "validate rejects $(basename "$f")" 1 "REJECTED" -- "$vcsched" validate "$f"
done
check "validate names the duplicated task" 1 "spec.tasks\[1\].name: duplicated task name task-1" -- \
  "$vcsched" validate "$data/volcano-examples/invalid_jobs/duplicatedTaskName-webhook-deny.yaml"
check "validate --strict rejects a template without containers" 1 "spec.tasks\[1\].template.spec.containers: Required value" -- \
  "$vcsched" validate --strict "$data/seed-examples/000-job-distributed-mnist.yaml"
check "validate --cluster checks the job's queue" 1 "unable to find job queue" -- \
  "$vcsched" validate --cluster "$data/seed-examples/000-queues-weighted.yaml" "$data/seed-examples/004-job-ci-pipeline.yaml"
sed 's/maxRetry: 5/maxRetry: 7/' "$data/volcano-examples/job.yaml" > "${TMPDIR:-/tmp}/vcsched-job-update.yaml"
check "validate --old judges an update" 1 "job updates may not change fields other than" -- \
  "$vcsched" validate --old "$data/volcano-examples/job.yaml" "${TMPDIR:-/tmp}/vcsched-job-update.yaml"
check "expand prints the hosts file" 0 "default-nginx.host: \|" -- "$vcsched" expand "$data/volcano-examples/job-plugin.yaml"
check "expand prints the ssh Secret" 0 "name: test-job-plugin-ssh" -- "$vcsched" expand "$data/volcano-examples/job-plugin.yaml"
check "expand output loads back as a scenario" 0 "summary: 3 binds" -- bash -c \
  "'$vcsched' expand '$data/volcano-examples/job-plugin.yaml' | grep -v '^#' > \"\${TMPDIR:-/tmp}/vcsched-expanded.yaml\" && \
   '$vcsched' schedule '$cluster' \"\${TMPDIR:-/tmp}/vcsched-expanded.yaml\""
check "expand refuses an invalid job" 1 "duplicated task name" -- \
  "$vcsched" expand "$data/volcano-examples/invalid_jobs/duplicatedTaskName-webhook-deny.yaml"
check "job: PodEvicted restarts the job" 0 "action: RestartJob" -- "$vcsched" job "$data/volcano-examples/job.yaml" \
  --sync --podgroup Inqueue --all-pods Running --evict test-job-default-nginx-0
check "job: exit code 137 (OOM) restarts the job, as the seeds rely on" 0 "event: PodFailed \(job policy 1\)" -- \
  "$vcsched" job "$data/seed-examples/004-job-genome-analysis.yaml" --sync --podgroup Inqueue --all-pods Running \
  --pod genome-analysis-compute-3=Failed:137
check "job: TaskCompleted completes the job" 0 "final phase: Completed" -- \
  "$vcsched" job "$data/seed-examples/000-job-distributed-mnist.yaml" --sync --podgroup Inqueue --all-pods Running \
  --pod distributed-mnist-worker-0=Succeeded --pod distributed-mnist-worker-1=Succeeded --all-pods Succeeded
check "job: an event as is, with an exit code" 0 "action: RestartJob -> Restarting" -- \
  "$vcsched" job "$data/seed-examples/004-job-genome-analysis.yaml" --event PodFailed:compute:genome-analysis-compute-0:137
check "job: a bad step is an error" 2 "no pod" -- "$vcsched" job "$data/volcano-examples/job.yaml" --pod nosuch=Running
check "schedule expands a Job in a scenario" 0 "summary: 6 binds" -- "$vcsched" schedule "$cluster" "$data/volcano-examples/job.yaml"
for bad in "--command Bogus" "--event Bogus" "--podgroup Bogus" "--all-pods Bogus"; do
  # shellcheck disable=SC2086
  check "job: an unknown name is an error ($bad)" 2 "unknown" -- "$vcsched" job "$data/volcano-examples/job.yaml" --sync $bad
done
check "job: a negative wait is an error" 2 "expects seconds" -- "$vcsched" job "$data/volcano-examples/job.yaml" --wait -5
check "job: each step prints the state it left" 0 "pods: pending 5, running 1" -- \
  "$vcsched" job "$data/volcano-examples/job.yaml" --sync --podgroup Inqueue --all-pods Running
check "job: finished pods do not run again" 0 "final phase: Completed" -- \
  "$vcsched" job "$data/seed-examples/000-job-distributed-mnist.yaml" --sync --podgroup Inqueue --all-pods Running \
  --all-pods Succeeded --all-pods Running
exit $fail
