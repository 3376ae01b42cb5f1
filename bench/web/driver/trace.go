package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/chromedp/cdproto/cdp"
	cdpio "github.com/chromedp/cdproto/io"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// The categories webdriver-ts (js-framework-benchmark) traces with, and
// v8.execute for the microtasks (RunMicrotasks) in which an app renders
// what a fetch answered.
var categories = []string{
	"blink.user_timing",
	"v8.execute",
	"devtools.timeline",
	"disabled-by-default-devtools.timeline",
}

// traceEvent is the part of a Chrome trace event the measurement reads.
type traceEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Ts   float64 `json:"ts"`
	Dur  float64 `json:"dur"`
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	Args struct {
		Data struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"data"`
	} `json:"args"`
}

func startTrace(ctx context.Context) error {
	_, err := chromedp.Call(ctx, tracing.Start, tracing.StartParams{
		TransferMode:      tracing.StartTransferModeReturnAsStream,
		StreamFormat:      tracing.StreamFormatJSON,
		StreamCompression: tracing.StreamCompressionGzip,
		TraceConfig:       &tracing.TraceConfig{IncludedCategories: categories},
	})
	return err
}

// stopTrace ends the trace and reads its events from the stream Chrome
// hands back (gzip, so that the protocol carries it as base64 bytes).
func stopTrace(ctx context.Context) ([]traceEvent, error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	complete := chromedp.Events(sctx, tracing.TracingComplete)
	if _, err := chromedp.Call(ctx, tracing.End, cdp.Empty{}); err != nil {
		return nil, err
	}
	var handle cdpio.StreamHandle
	for ev, err := range complete {
		if err != nil {
			return nil, err
		}
		if ev.DataLossOccurred {
			return nil, errors.New("the trace lost data")
		}
		handle = ev.Stream
		break
	}
	var gz bytes.Buffer
	for {
		r, err := chromedp.Call(ctx, cdpio.Read, cdpio.ReadParams{Handle: handle, Size: 1 << 20})
		if err != nil {
			return nil, fmt.Errorf("reading the trace: %w", err)
		}
		gz.Write(r.Data)
		if r.EOF {
			break
		}
	}
	if _, err := chromedp.Call(ctx, cdpio.Close, cdpio.CloseParams{Handle: handle}); err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(&gz)
	if err != nil {
		return nil, fmt.Errorf("the trace: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("the trace: %w", err)
	}
	var doc struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("the trace: %w", err)
	}
	return doc.TraceEvents, nil
}

// settledMark is the console.timeStamp the driver writes once the page shows
// the operation's result; the page's own work is what comes before it.
const settledMark = "acore-webbench-settled"

// duration is webdriver-ts's measure: from the click's EventDispatch to the
// end of the first Commit after the last click, animation frame, timer,
// layout or function call of the page's process that precedes the mark;
// and, as the apps render after their backend's answers, the last run of
// microtasks, except those of the driver's own evaluations (a RunTask that
// holds an EvaluateScript). Without them a page whose render runs in a
// promise's continuation would be measured to a frame before it renders.
func duration(events []traceEvent) (float64, error) {
	click, mark, err := clickAndMark(events)
	if err != nil {
		return 0, err
	}
	last := click.Ts + click.Dur
	var driverTasks []traceEvent
	for _, e := range events {
		if e.Name == "EvaluateScript" && e.Pid == click.Pid {
			for _, t := range events {
				if t.Name == "RunTask" && t.Pid == e.Pid && t.Tid == e.Tid && t.Ts <= e.Ts && e.Ts < t.Ts+t.Dur {
					driverTasks = append(driverTasks, t)
				}
			}
		}
	}
	for _, e := range events {
		if e.Pid != click.Pid || e.Ph != "X" || e.Ts <= click.Ts || e.Ts >= mark {
			continue
		}
		switch e.Name {
		case "FireAnimationFrame", "TimerFire", "Layout", "FunctionCall":
			last = max(last, e.Ts+e.Dur)
		case "RunMicrotasks":
			if !slices.ContainsFunc(driverTasks, func(t traceEvent) bool { return t.Tid == e.Tid && t.Ts <= e.Ts && e.Ts < t.Ts+t.Dur }) {
				last = max(last, e.Ts+e.Dur)
			}
		}
	}
	var commit *traceEvent
	for i, e := range events {
		if e.Pid == click.Pid && e.Name == "Commit" && e.Ph == "X" && e.Ts > last && (commit == nil || e.Ts < commit.Ts) {
			commit = &events[i]
		}
	}
	if commit == nil {
		return 0, errors.New("no Commit after the page's work")
	}
	return (commit.Ts + commit.Dur - click.Ts) / 1000, nil
}

// clickAndMark finds the run's one click and the driver's settled mark.
func clickAndMark(events []traceEvent) (*traceEvent, float64, error) {
	var click *traceEvent
	mark := -1.0
	for i, e := range events {
		switch {
		case e.Name == "EventDispatch" && e.Args.Data.Type == "click":
			if click != nil {
				return nil, 0, errors.New("the trace holds more than one click")
			}
			click = &events[i]
		case e.Name == "TimeStamp" && e.Args.Data.Message == settledMark:
			mark = e.Ts
		}
	}
	if click == nil {
		return nil, 0, errors.New("the trace holds no click")
	}
	if mark < 0 {
		return nil, 0, errors.New("the trace holds no settled mark")
	}
	return click, mark, nil
}

// breakdown sums, by event name, the complete events of the clicked page's
// process between the click and the mark: where an operation's time went
// (nested events each count, so the sums overlap). timeline lists the
// page's function calls, commits, timers, frames and resource events in
// that window, each with its start after the click and its duration.
func breakdown(events []traceEvent) (sums map[string]float64, timeline []string, err error) {
	click, mark, err := clickAndMark(events)
	if err != nil {
		return nil, nil, err
	}
	sums = map[string]float64{}
	for _, e := range events {
		if e.Pid != click.Pid || e.Ph != "X" || e.Ts < click.Ts || e.Ts >= mark {
			continue
		}
		sums[e.Name] += e.Dur / 1000
		switch e.Name {
		case "FunctionCall", "Commit", "TimerFire", "FireAnimationFrame", "ResourceReceiveResponse", "ResourceFinish", "EventDispatch":
			timeline = append(timeline, fmt.Sprintf("@%06.1f %s %.1f", (e.Ts-click.Ts)/1000, e.Name, e.Dur/1000))
		}
	}
	slices.Sort(timeline)
	return sums, timeline, nil
}
