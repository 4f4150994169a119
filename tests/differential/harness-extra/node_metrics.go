package main

// A copy of vcharness for the usage plugin (not product code): the node metrics that
// vcsched reads from node annotations (vcsched.io/cpu-usage-percent,
// vcsched.io/memory-usage-percent, vcsched.io/usage-time) become the cache's NodeUsage,
// as the scheduler's metrics source would set them. Volcano compares those times with the
// wall clock, vcsched with the session clock (the newest creationTimestamp of the pods and
// PodGroups): every time the usage plugin reads (metrics time, pods' status.startTime) is
// moved by the distance between the two.

import (
	"strconv"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	schedulingapi "volcano.sh/volcano/pkg/scheduler/api"
	"volcano.sh/volcano/pkg/scheduler/cache"
	"volcano.sh/volcano/pkg/scheduler/metrics/source"
)

func clockShift(s *Scenario) time.Duration {
	var latest time.Time
	for _, p := range s.Pods {
		if t := p.CreationTimestamp.Time; t.After(latest) {
			latest = t
		}
	}
	for _, pg := range s.PodGroups {
		if t := pg.CreationTimestamp.Time; t.After(latest) {
			latest = t
		}
	}
	if latest.IsZero() {
		return 0
	}
	return time.Since(latest)
}

func shiftStartTime(p *v1.Pod, shift time.Duration) {
	if p.Status.StartTime != nil {
		p.Status.StartTime = &metav1.Time{Time: p.Status.StartTime.Time.Add(shift)}
	}
}

func applyNodeMetrics(c *cache.SchedulerCache, s *Scenario, shift time.Duration) {
	for _, n := range s.Nodes {
		a := n.Annotations
		cpuText, ok1 := a["vcsched.io/cpu-usage-percent"]
		memText, ok2 := a["vcsched.io/memory-usage-percent"]
		when, ok3 := a["vcsched.io/usage-time"]
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		cpu, err1 := strconv.ParseFloat(cpuText, 64)
		mem, err2 := strconv.ParseFloat(memText, 64)
		t, err3 := time.Parse(time.RFC3339, when)
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		info, ok := c.Nodes[n.Name]
		if !ok {
			continue
		}
		info.ResourceUsage = &schedulingapi.NodeUsage{
			MetricsTime: t.Add(shift),
			CPUUsageAvg: map[string]float64{source.NODE_METRICS_PERIOD: cpu},
			MEMUsageAvg: map[string]float64{source.NODE_METRICS_PERIOD: mem},
		}
	}
}
