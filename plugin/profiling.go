package plugin

import (
	"fmt"
	"time"
)

// ProfilingStatus is OpenVINO's ov::ProfilingInfo::Status.
type ProfilingStatus int

const (
	NotRun       ProfilingStatus = iota // the layer does no work at inference: Parameter, Result
	OptimizedOut                        // the layer was computed at compile time: a Divide of constants
	Executed                            // the layer ran
)

func (s ProfilingStatus) String() string {
	switch s {
	case NotRun:
		return "NOT_RUN"
	case OptimizedOut:
		return "OPTIMIZED_OUT"
	case Executed:
		return "EXECUTED"
	}
	return fmt.Sprintf("ProfilingStatus(%d)", int(s))
}

// ProfilingInfo is one layer's performance counters, as OpenVINO's
// ov::ProfilingInfo, with what irdiv adds for a Divide.
type ProfilingInfo struct {
	NodeName string
	NodeType string // the layer's type attribute: Parameter, Divide, Result
	// ExecType names the implementation, as OpenVINO's CPU plugin does:
	// for a Divide the SIMD level and the element type ("avx512_i32"), for
	// other layers "undef".
	ExecType string
	Status   ProfilingStatus
	// RealTime is the layer's time in the last inference; CPUTime equals
	// it, as in OpenVINO's CPU plugin.
	RealTime, CPUTime time.Duration
	// Elements and Threads describe the last inference's Divide: output
	// elements and the goroutines it split into.
	Elements int64
	Threads  int
	// Runs and TotalTime count every inference of the request, so that
	// averages need no call per inference.
	Runs      int64
	TotalTime time.Duration
}

// ProfilingInfo returns the layers' counters in execution order (the
// layers of the plan, then those folded at compile time, then the
// Results), as OpenVINO's get_profiling_info does. The model must have
// been compiled with Config.Profiling.
func (r *InferRequest) ProfilingInfo() ([]ProfilingInfo, error) {
	if err := r.acquire(); err != nil {
		return nil, err
	}
	defer r.release()
	if r.counters == nil {
		return nil, errorf("profiling is not enabled: compile the model with Config.Profiling")
	}
	var out []ProfilingInfo
	level := r.cm.SIMD().String()
	for i, st := range r.cm.steps {
		info := ProfilingInfo{NodeName: st.layer.Name, NodeType: st.layer.Type, ExecType: "undef", Status: NotRun}
		if st.kind == stepEvaluate {
			c := r.counters[i]
			info.Status, info.RealTime, info.CPUTime, info.Runs, info.TotalTime = Executed, c.last, c.last, c.runs, c.total
			info.ExecType = "ref_" + st.layer.Type
		}
		if st.kind == stepDivide {
			c := r.counters[i]
			info.Status, info.RealTime, info.CPUTime, info.Runs, info.TotalTime = Executed, c.last, c.last, c.runs, c.total
			if call := r.calls[i]; call != nil {
				info.ExecType = level + "_" + call.Type().String()
				info.Elements = int64(r.owned[i].Len())
				info.Threads = call.Threads()
			}
		}
		out = append(out, info)
	}
	for _, l := range r.cm.folded {
		out = append(out, ProfilingInfo{NodeName: l.Name, NodeType: l.Type, ExecType: "undef", Status: OptimizedOut})
	}
	for _, p := range r.cm.outputs {
		out = append(out, ProfilingInfo{NodeName: p.Name, NodeType: "Result", ExecType: "undef", Status: NotRun})
	}
	return out, nil
}
