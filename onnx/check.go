package onnx

import "github.com/irdiv/irdiv/onnx/internal/onnxpb"

// checkGraph applies the rules of onnx.checker that irdiv relies on: the
// graph is in SSA form (every name defined once, by a graph input, an
// initializer or one node output), nodes come in topological order (each
// reads only names defined before it), and every graph output is defined.
// A graph input that also has an initializer is one name (IR version 4
// and later allow it; earlier versions require it). A subgraph (outer
// non-nil) may also read the names its enclosing graphs define before the
// node that holds it: ONNX scopes names lexically.
func checkGraph(gp *onnxpb.GraphProto, outer *scope) error {
	defined := make(map[string]string) // name -> what defines it
	inputs := make(map[string]bool)
	for _, vi := range gp.GetInput() {
		name := vi.GetName()
		if name == "" {
			return errorf("%w: a graph input has no name", ErrFormat)
		}
		if inputs[name] {
			return errorf("%w: graph input %q is declared twice (an ONNX graph defines each name once)", ErrFormat, name)
		}
		inputs[name] = true
		defined[name] = "graph input"
	}
	inits := make(map[string]bool)
	for _, tp := range gp.GetInitializer() {
		name := tp.GetName()
		if inits[name] {
			return errorf("%w: initializer %q is defined twice (an ONNX graph defines each name once)", ErrFormat, name)
		}
		inits[name] = true
		if !inputs[name] {
			defined[name] = "initializer"
		}
	}
	for i, np := range gp.GetNode() {
		n := &Node{Name: np.GetName(), OpType: np.GetOpType(), Index: i}
		if n.OpType == "" {
			return errorf("%w: %s has no op_type", ErrFormat, n)
		}
		for _, in := range np.GetInput() {
			if in != "" && defined[in] == "" && !outer.has(in) {
				return errorf("%w: %s reads %q, which no graph input, initializer or earlier node defines (ONNX nodes are in topological order)", ErrFormat, n, in)
			}
		}
		for _, out := range np.GetOutput() {
			if out == "" {
				continue // an optional output the node does not produce
			}
			if what := defined[out]; what != "" {
				return errorf("%w: %s writes %q, which is already defined by %s (an ONNX graph defines each name once)", ErrFormat, n, out, what)
			}
			defined[out] = n.String()
		}
	}
	for _, vi := range gp.GetOutput() {
		if name := vi.GetName(); defined[name] == "" && !outer.has(name) {
			return errorf("%w: graph output %q is defined by no graph input, initializer or node", ErrFormat, name)
		}
	}
	return nil
}

// scope is the names a graph defines so far, inside those of the graphs
// that enclose it.
type scope struct {
	names  map[string]bool
	parent *scope
}

// has reports whether the scope or an enclosing one defines name.
func (s *scope) has(name string) bool {
	for ; s != nil; s = s.parent {
		if s.names[name] {
			return true
		}
	}
	return false
}
