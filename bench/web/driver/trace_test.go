package main

import (
	"strings"
	"testing"
)

func ev(name, ph string, ts, dur float64, pid int, typ string) traceEvent {
	e := traceEvent{Name: name, Ph: ph, Ts: ts, Dur: dur, Pid: pid}
	if name == "TimeStamp" {
		e.Args.Data.Message = typ
	} else {
		e.Args.Data.Type = typ
	}
	return e
}

func TestDuration(t *testing.T) {
	click := ev("EventDispatch", "X", 1000, 100, 1, "click")
	mark := ev("TimeStamp", "I", 90000, 0, 1, settledMark)
	tests := []struct {
		name   string
		events []traceEvent
		want   float64
		err    string
	}{
		{"the commit after the render's layout", []traceEvent{
			click,
			ev("Commit", "X", 2000, 100, 1, ""), // the click's own frame
			ev("FunctionCall", "X", 40000, 5000, 1, ""),
			ev("Layout", "X", 45000, 3000, 1, ""),
			ev("Commit", "X", 50000, 1000, 1, ""),
			ev("Commit", "X", 60000, 1000, 1, ""),
			mark,
		}, 50, ""},
		{"work of other processes and after the mark is not the page's", []traceEvent{
			click,
			ev("Layout", "X", 10000, 1000, 1, ""),
			ev("Commit", "X", 12000, 1000, 1, ""),
			ev("Layout", "X", 30000, 1000, 2, ""),
			ev("Commit", "X", 32000, 1000, 2, ""),
			mark,
			ev("FireAnimationFrame", "X", 91000, 100, 1, ""),
			ev("Commit", "X", 92000, 1000, 1, ""),
		}, 12, ""},
		{"the commit after the microtasks that render an answer, not the driver's", []traceEvent{
			click,
			ev("Commit", "X", 5000, 1000, 1, ""), // before the answer
			ev("RunMicrotasks", "X", 20000, 2000, 1, ""),
			ev("Commit", "X", 30000, 1000, 1, ""),
			// The driver's poll: a task that evaluates, then its microtasks.
			ev("RunTask", "X", 40000, 3000, 1, ""),
			ev("EvaluateScript", "X", 40100, 500, 1, ""),
			ev("RunMicrotasks", "X", 41000, 100, 1, ""),
			ev("Commit", "X", 45000, 1000, 1, ""),
			mark,
		}, 30, ""},
		{"no click", []traceEvent{mark}, 0, "no click"},
		{"two clicks", []traceEvent{click, click, mark}, 0, "more than one click"},
		{"no mark", []traceEvent{click}, 0, "no settled mark"},
		{"no commit", []traceEvent{click, ev("Layout", "X", 3000, 10, 1, ""), ev("Commit", "X", 2000, 10, 1, ""), mark}, 0, "no Commit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := duration(tt.events)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("duration %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tt.xs); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.xs, got, tt.want)
		}
	}
}
