package compound

import "strings"

// check finds what MySQL refuses in a body when the procedure is created:
// a LEAVE or ITERATE without its label (1308), a label used twice (1309),
// a name declared twice in a block (1331 to 1333, 1413 for handlers),
// cursors and conditions used but not declared (1324, 1319), FETCH into
// or GET DIAGNOSTICS of an undeclared variable (1327), and RETURN outside
// a function (1313).
func check(body Stmt, params []string) error {
	return (&checker{}).run(body, params)
}

// Visitor is called with each piece of a body the SQL engine is to read:
// a statement (expr false) or an expression, and a function that says
// whether a name is a variable where the text stands.
type Visitor func(text string, expr bool, isVar func(name string) bool) error

// Visit checks r's body as Procedure does and calls f with each
// statement and expression in it, in order, stopping at f's first error.
func Visit(r *Routine, f Visitor) error {
	names := make([]string, len(r.Params))
	for i, p := range r.Params {
		names[i] = p.Name
	}
	return (&checker{visit: f, function: r.Function}).run(r.Body, names)
}

func (c *checker) run(body Stmt, params []string) error {
	top := newNames()
	for _, p := range params {
		top.vars[strings.ToLower(p)] = true
	}
	c.scopes = []*names{top}
	return c.stmt(body)
}

type label struct {
	name string
	loop bool
}

type names struct {
	vars, conds, cursors map[string]bool
}

func newNames() *names {
	return &names{vars: map[string]bool{}, conds: map[string]bool{}, cursors: map[string]bool{}}
}

type checker struct {
	labels []label
	scopes []*names
	visit  Visitor
	// function allows RETURN, and counts them in returns.
	function bool
	returns  int
}

// text gives a statement or expression to the visitor, if there is one.
func (c *checker) text(t string, expr bool) error {
	if c.visit == nil || t == "" {
		return nil
	}
	return c.visit(t, expr, func(name string) bool { return c.declared(vars, name) })
}

func (c *checker) declared(kind func(*names) map[string]bool, name string) bool {
	name = strings.ToLower(name)
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if kind(c.scopes[i])[name] {
			return true
		}
	}
	return false
}

func vars(n *names) map[string]bool    { return n.vars }
func conds(n *names) map[string]bool   { return n.conds }
func cursors(n *names) map[string]bool { return n.cursors }

func (c *checker) label(l string) *label {
	for i := len(c.labels) - 1; i >= 0; i-- {
		if strings.EqualFold(c.labels[i].name, l) {
			return &c.labels[i]
		}
	}
	return nil
}

func (c *checker) pushLabel(l string, loop bool) error {
	if l == "" {
		return nil
	}
	if c.label(l) != nil {
		return errorf(1309, "42000", "Redefining label %s", l)
	}
	c.labels = append(c.labels, label{name: l, loop: loop})
	return nil
}

func (c *checker) popLabel(l string) {
	if l != "" {
		c.labels = c.labels[:len(c.labels)-1]
	}
}

func (c *checker) list(l []Stmt) error {
	for _, s := range l {
		if err := c.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) condition(cond Condition) error {
	if cond.Kind == Named && !c.declared(conds, cond.Name) {
		return errorf(1319, "42000", "Undefined CONDITION: %s", cond.Name)
	}
	return nil
}

func (c *checker) variable(name string) error {
	if strings.HasPrefix(name, "@") || c.declared(vars, name) {
		return nil
	}
	return errorf(1327, "42000", "Undeclared variable: %s", name)
}

func (c *checker) cursor(name string) error {
	if !c.declared(cursors, name) {
		return errorf(1324, "42000", "Undefined CURSOR: %s", name)
	}
	return nil
}

func (c *checker) stmt(s Stmt) error {
	switch s := s.(type) {
	case *Block:
		return c.block(s)
	case *SQL:
		return c.text(s.Text, false)
	case *If:
		for _, b := range s.Branches {
			if err := c.text(b.Cond, true); err != nil {
				return err
			}
			if err := c.list(b.Body); err != nil {
				return err
			}
		}
		return c.list(s.Else)
	case *Case:
		if err := c.text(s.Value, true); err != nil {
			return err
		}
		for _, b := range s.Whens {
			if err := c.text(b.Cond, true); err != nil {
				return err
			}
			if err := c.list(b.Body); err != nil {
				return err
			}
		}
		return c.list(s.Else)
	case *Loop:
		if err := c.pushLabel(s.Label, true); err != nil {
			return err
		}
		defer c.popLabel(s.Label)
		if err := c.text(s.Cond, true); err != nil {
			return err
		}
		return c.list(s.Body)
	case *Leave:
		if c.label(s.Label) == nil {
			return errorf(1308, "42000", "LEAVE with no matching label: %s", s.Label)
		}
	case *Iterate:
		if l := c.label(s.Label); l == nil || !l.loop {
			return errorf(1308, "42000", "ITERATE with no matching label: %s", s.Label)
		}
	case *Return:
		if !c.function {
			return errorf(1313, "42000", "RETURN is only allowed in a FUNCTION")
		}
		c.returns++
		return c.text(s.Expr, true)
	case *Open:
		return c.cursor(s.Cursor)
	case *Close:
		return c.cursor(s.Cursor)
	case *Fetch:
		if err := c.cursor(s.Cursor); err != nil {
			return err
		}
		for _, v := range s.Into {
			if err := c.variable(v); err != nil {
				return err
			}
		}
	case *Signal:
		for _, it := range s.Items {
			if err := c.text(it.Expr, true); err != nil {
				return err
			}
		}
		if s.Cond != nil {
			return c.condition(*s.Cond)
		}
	case *Diagnostics:
		for _, it := range s.Items {
			if err := c.variable(it.Expr); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *checker) block(b *Block) error {
	if err := c.pushLabel(b.Label, false); err != nil {
		return err
	}
	defer c.popLabel(b.Label)
	n := newNames()
	c.scopes = append(c.scopes, n)
	defer func() { c.scopes = c.scopes[:len(c.scopes)-1] }()
	for _, v := range b.Vars {
		if err := c.text(v.Default, true); err != nil {
			return err
		}
		for _, name := range v.Names {
			k := strings.ToLower(name)
			if n.vars[k] {
				return errorf(1331, "42000", "Duplicate variable: %s", name)
			}
			n.vars[k] = true
		}
	}
	for _, d := range b.Conds {
		k := strings.ToLower(d.Name)
		if n.conds[k] {
			return errorf(1332, "42000", "Duplicate condition: %s", d.Name)
		}
		n.conds[k] = true
	}
	for _, cur := range b.Cursors {
		if err := c.text(cur.Query, false); err != nil {
			return err
		}
		k := strings.ToLower(cur.Name)
		if n.cursors[k] {
			return errorf(1333, "42000", "Duplicate cursor: %s", cur.Name)
		}
		n.cursors[k] = true
	}
	seen := map[Condition]bool{}
	for _, h := range b.Handlers {
		for _, cond := range h.Conds {
			if err := c.condition(cond); err != nil {
				return err
			}
			key := cond
			key.Name = strings.ToLower(key.Name)
			if seen[key] {
				return errorf(1413, "42000", "Duplicate handler declared in the same block")
			}
			seen[key] = true
		}
		// A handler's statement cannot leave or iterate the labels
		// around its declaration.
		outer := c.labels
		c.labels = nil
		err := c.stmt(h.Body)
		c.labels = outer
		if err != nil {
			return err
		}
	}
	return c.list(b.Body)
}
