package compound

import (
	"strconv"
	"strings"
)

// Routine is a CREATE PROCEDURE or CREATE FUNCTION statement's name,
// parameters and body, and where the body lies in the statement's text.
type Routine struct {
	DB, Name    string // DB is empty when the name is not qualified
	IfNotExists bool
	Function    bool
	Returns     string // a function's RETURNS type, as text
	Params      []Param
	Body        Stmt
	Start, End  int
	// HasReturn says whether a function's body holds a RETURN (MySQL
	// refuses one that does not, 1320).
	HasReturn bool
	// HasDefiner says whether the statement names its DEFINER; Created
	// is the offset just past its CREATE, where MySQL writes one.
	HasDefiner bool
	Created    int
	// DefinerUser and DefinerHost are the account the DEFINER clause
	// names, empty when it names CURRENT_USER or there is none.
	DefinerUser, DefinerHost string
	// Invoker says the routine is SQL SECURITY INVOKER: its statements
	// run with the caller's privileges, not its definer's.
	Invoker bool
	// NameSpan is where the routine's name, qualified or not, lies in
	// the text; IfNotExistsSpan where IF NOT EXISTS does (empty when it
	// is not there).
	NameSpan, IfNotExistsSpan [2]int
}

// Param is a procedure's parameter. Mode is IN, OUT or INOUT (upper
// case); Type is the type's text.
type Param struct {
	Mode, Name, Type string
}

// param reads the parameter in tokens [from, to).
func (p *parser) param(from, to int) (Param, bool) {
	par := Param{Mode: "IN"}
	if t := p.toks[from]; from+1 < to && (t.is("IN") || t.is("OUT") || t.is("INOUT")) {
		par.Mode = strings.ToUpper(t.text)
		from++
	}
	if t := p.toks[from]; (t.kind == tokWord || t.kind == tokQuoted) && from+1 < to {
		par.Name = t.name()
		par.Type = p.src[p.toks[from+1].start:p.toks[to-1].end]
		return par, true
	}
	return par, false
}

// Procedure reads text as a CREATE PROCEDURE statement. ok is false when
// text is some other statement; otherwise err, when not nil, is why MySQL
// would refuse the statement's body, and the Routine says where the body
// lies (Start is valid even then).
func Procedure(text string) (r *Routine, ok bool, err error) {
	return readRoutine(text, false)
}

// Function reads text as a CREATE FUNCTION statement, as Procedure reads
// a procedure: its body may RETURN, and its parameters have no mode.
func Function(text string) (r *Routine, ok bool, err error) {
	return readRoutine(text, true)
}

func readRoutine(text string, function bool) (r *Routine, ok bool, err error) {
	p := &parser{src: text, toks: lex(text)}
	r = &Routine{Function: function, Start: len(text), End: len(text)}
	if !p.routineHeader(r) {
		return nil, false, nil
	}
	if p.i < len(p.toks) {
		r.Start = p.toks[p.i].start
	}
	body, err := p.statement()
	if err != nil {
		return r, true, err
	}
	r.End = p.toks[p.i-1].end
	// What follows the body (the next statements of a query of several)
	// is left to the caller.
	names := make([]string, len(r.Params))
	for i, par := range r.Params {
		names[i] = par.Name
	}
	c := &checker{function: function}
	if err := c.run(body, names); err != nil {
		return r, true, err
	}
	r.Body, r.HasReturn = body, c.returns > 0
	return r, true, nil
}

// Parse reads src as a procedure body without parameters.
func Parse(src string) (Stmt, error) {
	p := &parser{src: src, toks: lex(src)}
	body, err := p.statement()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) && p.toks[p.i].text == ";" && p.toks[p.i].kind == tokPunct {
		p.i++
	}
	if p.i < len(p.toks) {
		return nil, p.syntax()
	}
	return body, check(body, nil)
}

type parser struct {
	src  string
	toks []token
	i    int
}

// peek is the token k places ahead; past the end, a token of no kind.
func (p *parser) peek(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return token{kind: -1, start: len(p.src), end: len(p.src)}
}

func (p *parser) at(kw string) bool { return p.peek(0).is(kw) }

func (p *parser) atPunct(s string) bool {
	t := p.peek(0)
	return t.kind == tokPunct && t.text == s
}

func (p *parser) eof() bool { return p.i >= len(p.toks) }

// syntax is MySQL's syntax error near the current token.
func (p *parser) syntax() error {
	t := p.peek(0)
	near := p.src[t.start:]
	if len(near) > 80 {
		near = near[:80]
	}
	line := 1 + strings.Count(p.src[:t.start], "\n")
	return errorf(1064, "42000", "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line %d", near, line)
}

func (p *parser) expect(kw string) error {
	if !p.at(kw) {
		return p.syntax()
	}
	p.i++
	return nil
}

func (p *parser) expectPunct(s string) error {
	if !p.atPunct(s) {
		return p.syntax()
	}
	p.i++
	return nil
}

// ident reads a name: a word or a quoted identifier.
func (p *parser) ident() (string, error) {
	t := p.peek(0)
	if t.kind != tokWord && t.kind != tokQuoted {
		return "", p.syntax()
	}
	p.i++
	return t.name(), nil
}

// routineHeader reads CREATE [OR REPLACE] [DEFINER = user] {PROCEDURE |
// FUNCTION} [IF NOT EXISTS] name (params) [RETURNS type] [characteristics]
// up to the body into r; false for another statement.
func (p *parser) routineHeader(r *Routine) bool {
	if !p.at("CREATE") {
		return false
	}
	r.Created = p.peek(0).end
	p.i++
	if p.at("OR") && p.peek(1).is("REPLACE") {
		p.i += 2
	}
	if p.at("DEFINER") {
		r.HasDefiner = true
		p.i++
		if !p.atPunct("=") {
			return false
		}
		p.i++
		if p.at("CURRENT_USER") {
			p.i++
			if p.atPunct("(") && p.peek(1).text == ")" {
				p.i += 2
			}
		} else {
			r.DefinerUser = accountPart(p.peek(0).text)
			p.i++
			if t := p.peek(0); t.kind == tokVar && !strings.HasPrefix(t.text, "@@") {
				r.DefinerHost = accountPart(t.text[1:])
				p.i++
			} else if p.atPunct("@") {
				r.DefinerHost = accountPart(p.peek(1).text)
				p.i += 2
			}
		}
	}
	kind := "PROCEDURE"
	if r.Function {
		kind = "FUNCTION"
	}
	if !p.at(kind) {
		return false
	}
	p.i++
	if p.at("IF") && p.peek(1).is("NOT") && p.peek(2).is("EXISTS") {
		r.IfNotExistsSpan = [2]int{p.peek(0).start, p.peek(2).end}
		p.i += 3
		r.IfNotExists = true
	}
	r.NameSpan[0] = p.peek(0).start
	name, err := p.ident()
	if err != nil {
		return false
	}
	r.Name = name
	if p.atPunct(".") {
		p.i++
		if r.Name, err = p.ident(); err != nil {
			return false
		}
		r.DB = name
	}
	r.NameSpan[1] = p.toks[p.i-1].end
	params, ok := p.params()
	if !ok {
		return false
	}
	r.Params = params
	if r.Function {
		if !p.at("RETURNS") {
			return false
		}
		p.i++
		if r.Returns, ok = p.returnType(); !ok {
			return false
		}
	}
	r.Invoker = p.characteristics()
	return true
}

// accountPart is the user or host name of an account as written: bare,
// or quoted with ', " or `.
func accountPart(text string) string {
	if len(text) >= 2 && (text[0] == '\'' || text[0] == '"' || text[0] == '`') && text[len(text)-1] == text[0] {
		return unquote(text)
	}
	return text
}

// returnType reads a function's RETURNS type: a type name, its length or
// members in parentheses, and its attributes.
func (p *parser) returnType() (string, bool) {
	if p.peek(0).kind != tokWord {
		return "", false
	}
	start := p.i
	p.i++
	if p.atPunct("(") {
		for depth := 0; !p.eof(); p.i++ {
			if p.atPunct("(") {
				depth++
			} else if p.atPunct(")") {
				if depth--; depth == 0 {
					p.i++
					break
				}
			}
		}
	}
	for !p.eof() {
		switch {
		case p.at("UNSIGNED"), p.at("SIGNED"), p.at("ZEROFILL"), p.at("BINARY"):
			p.i++
		case p.at("CHARSET"), p.at("COLLATE"):
			p.i += 2
		case p.at("CHARACTER") && p.peek(1).is("SET"):
			p.i += 3
		default:
			return p.src[p.toks[start].start:p.toks[p.i-1].end], true
		}
	}
	return p.src[p.toks[start].start:p.toks[p.i-1].end], true
}

// params reads a routine's parameter list, in parentheses.
func (p *parser) params() (params []Param, ok bool) {
	if !p.atPunct("(") {
		return nil, false
	}
	p.i++
	// Each parameter is [IN | OUT | INOUT] name type, up to a comma or
	// the closing parenthesis outside any of the type's own.
	for depth, seg := 0, p.i; ; p.i++ {
		if p.eof() {
			return nil, false
		}
		t := p.peek(0)
		if t.kind != tokPunct {
			continue
		}
		switch {
		case t.text == "(":
			depth++
		case t.text == ")" && depth > 0:
			depth--
		case depth == 0 && (t.text == "," || t.text == ")"):
			if p.i > seg {
				param, ok := p.param(seg, p.i)
				if !ok {
					return nil, false
				}
				params = append(params, param)
			}
			seg = p.i + 1
			if t.text == ")" {
				p.i++
				return params, true
			}
		}
	}
}

// characteristics reads a routine's characteristics, up to its body.
func (p *parser) characteristics() (invoker bool) {
	for !p.eof() {
		switch {
		case p.at("COMMENT") && p.peek(1).kind == tokString:
			p.i += 2
		case p.at("LANGUAGE") && p.peek(1).is("SQL"):
			p.i += 2
		case p.at("NOT") && p.peek(1).is("DETERMINISTIC"):
			p.i += 2
		case p.at("DETERMINISTIC"):
			p.i++
		case p.at("CONTAINS") && p.peek(1).is("SQL"), p.at("NO") && p.peek(1).is("SQL"):
			p.i += 2
		case (p.at("READS") || p.at("MODIFIES")) && p.peek(1).is("SQL") && p.peek(2).is("DATA"):
			p.i += 3
		case p.at("SQL") && p.peek(1).is("SECURITY") && (p.peek(2).is("DEFINER") || p.peek(2).is("INVOKER")):
			invoker = p.peek(2).is("INVOKER")
			p.i += 3
		default:
			return invoker
		}
	}
	return invoker
}

// statement reads one statement, leaving the ';' after it.
func (p *parser) statement() (Stmt, error) {
	if p.eof() {
		return nil, p.syntax()
	}
	t := p.peek(0)
	label := ""
	if (t.kind == tokWord || t.kind == tokQuoted) && p.peek(1).kind == tokPunct && p.peek(1).text == ":" {
		label = t.name()
		p.i += 2
		t = p.peek(0)
		if !(t.is("BEGIN") || t.is("LOOP") || t.is("WHILE") || t.is("REPEAT")) {
			return nil, p.syntax()
		}
	}
	if t.kind != tokWord {
		return p.sql()
	}
	switch strings.ToUpper(t.text) {
	case "BEGIN":
		return p.block(label)
	case "LOOP", "WHILE", "REPEAT":
		return p.loop(label)
	case "IF":
		return p.ifStmt()
	case "CASE":
		return p.caseStmt()
	case "LEAVE", "ITERATE":
		p.i++
		l, err := p.ident()
		if err != nil {
			return nil, err
		}
		if t.is("LEAVE") {
			return &Leave{At: t.start, Label: l}, nil
		}
		return &Iterate{At: t.start, Label: l}, nil
	case "RETURN":
		p.i++
		e, err := p.expr(stopAt(";"))
		if err != nil {
			return nil, err
		}
		return &Return{At: t.start, Expr: e}, nil
	case "OPEN", "CLOSE":
		p.i++
		c, err := p.ident()
		if err != nil {
			return nil, err
		}
		if t.is("OPEN") {
			return &Open{At: t.start, Cursor: c}, nil
		}
		return &Close{At: t.start, Cursor: c}, nil
	case "FETCH":
		return p.fetch()
	case "SIGNAL", "RESIGNAL":
		return p.signal()
	case "GET":
		return p.diagnostics()
	case "DECLARE", "END", "ELSE", "ELSEIF", "WHEN", "UNTIL", "THEN":
		return nil, p.syntax()
	}
	return p.sql()
}

// sql reads a statement this package does not know, up to its ';'.
func (p *parser) sql() (Stmt, error) {
	start := p.i
	for !p.eof() && !p.atPunct(";") {
		p.i++
	}
	if p.i == start {
		return nil, p.syntax()
	}
	return &SQL{At: p.toks[start].start, Text: p.src[p.toks[start].start:p.toks[p.i-1].end]}, nil
}

// stopAt stops an expression at any of the given keywords or punctuation.
func stopAt(words ...string) func(token) bool {
	return func(t token) bool {
		for _, w := range words {
			if (t.kind == tokWord && strings.EqualFold(t.text, w)) || (t.kind == tokPunct && t.text == w) {
				return true
			}
		}
		return false
	}
}

// expr reads an expression's text up to a token stop accepts outside
// parentheses and CASE ... END. An expression never holds a ';'.
func (p *parser) expr(stop func(token) bool) (string, error) {
	start := p.i
	depth, cases := 0, 0
	for ; !p.eof(); p.i++ {
		t := p.toks[p.i]
		if depth == 0 && cases == 0 && stop(t) {
			break
		}
		switch {
		case t.kind == tokPunct && t.text == ";":
			return "", p.syntax()
		case t.kind == tokPunct && t.text == "(":
			depth++
		case t.kind == tokPunct && t.text == ")":
			if depth == 0 {
				return "", p.syntax()
			}
			depth--
		case t.is("CASE"):
			cases++
		case t.is("END") && cases > 0:
			cases--
		}
	}
	if p.i == start || (p.eof() && !stop(token{kind: tokPunct, text: ";"})) {
		return "", p.syntax() // nothing read, or the end came first
	}
	return p.src[p.toks[start].start:p.toks[p.i-1].end], nil
}

// list reads statements, each ended by ';', up to one of the keywords.
func (p *parser) list(ends ...string) ([]Stmt, error) {
	var out []Stmt
	for {
		if p.eof() {
			return nil, p.syntax()
		}
		for _, e := range ends {
			if p.at(e) {
				return out, nil
			}
		}
		s, err := p.statement()
		if err != nil {
			return nil, err
		}
		if err := p.expectPunct(";"); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
}

// endLabel reads the label after END [LOOP | WHILE | REPEAT], which must
// be the statement's own.
func (p *parser) endLabel(label string) error {
	t := p.peek(0)
	if t.kind != tokWord && t.kind != tokQuoted {
		return nil
	}
	if label == "" || !strings.EqualFold(t.name(), label) {
		return errorf(1310, "42000", "End-label %s without match", t.name())
	}
	p.i++
	return nil
}

func (p *parser) block(label string) (Stmt, error) {
	b := &Block{At: p.peek(0).start, Label: label}
	p.i++ // BEGIN
	const (
		varsAndConds = iota
		cursors
		handlers
	)
	phase := varsAndConds
	for p.at("DECLARE") {
		p.i++
		t0, t1 := p.peek(0), p.peek(1)
		switch {
		case (t0.is("CONTINUE") || t0.is("EXIT") || t0.is("UNDO")) && t1.is("HANDLER"):
			phase = handlers
			h, err := p.handler()
			if err != nil {
				return nil, err
			}
			b.Handlers = append(b.Handlers, h)
		case t1.is("CURSOR"):
			if phase > cursors {
				return nil, errorf(1338, "42000", "Cursor declaration after handler declaration")
			}
			phase = cursors
			name, _ := p.ident()
			p.i++ // CURSOR
			if err := p.expect("FOR"); err != nil {
				return nil, err
			}
			q, err := p.sql()
			if err != nil {
				return nil, err
			}
			b.Cursors = append(b.Cursors, &Cursor{Name: name, Query: q.(*SQL).Text})
		case t1.is("CONDITION"):
			if phase > varsAndConds {
				return nil, errorf(1337, "42000", "Variable or condition declaration after cursor or handler declaration")
			}
			name, _ := p.ident()
			p.i++ // CONDITION
			if err := p.expect("FOR"); err != nil {
				return nil, err
			}
			c, err := p.condition(false)
			if err != nil {
				return nil, err
			}
			b.Conds = append(b.Conds, &CondDecl{Name: name, Cond: c})
		default:
			if phase > varsAndConds {
				return nil, errorf(1337, "42000", "Variable or condition declaration after cursor or handler declaration")
			}
			v, err := p.variable()
			if err != nil {
				return nil, err
			}
			b.Vars = append(b.Vars, v)
		}
		if err := p.expectPunct(";"); err != nil {
			return nil, err
		}
	}
	body, err := p.list("END")
	if err != nil {
		return nil, err
	}
	b.Body = body
	p.i++ // END
	return b, p.endLabel(label)
}

func (p *parser) variable() (*Var, error) {
	v := &Var{}
	for {
		n, err := p.ident()
		if err != nil {
			return nil, err
		}
		v.Names = append(v.Names, n)
		if !p.atPunct(",") {
			break
		}
		p.i++
	}
	typ, err := p.expr(stopAt("DEFAULT", ";"))
	if err != nil {
		return nil, err
	}
	v.Type = typ
	if p.at("DEFAULT") {
		p.i++
		if v.Default, err = p.expr(stopAt(";")); err != nil {
			return nil, err
		}
	}
	return v, nil
}

func (p *parser) handler() (*Handler, error) {
	t := p.peek(0)
	if t.is("UNDO") {
		return nil, errorf(1235, "42000", "This version of MySQL doesn't yet support 'UNDO HANDLER'")
	}
	h := &Handler{At: t.start, Exit: t.is("EXIT")}
	p.i += 2 // CONTINUE | EXIT, HANDLER
	if err := p.expect("FOR"); err != nil {
		return nil, err
	}
	for {
		c, err := p.condition(true)
		if err != nil {
			return nil, err
		}
		h.Conds = append(h.Conds, c)
		if !p.atPunct(",") {
			break
		}
		p.i++
	}
	body, err := p.statement()
	if err != nil {
		return nil, err
	}
	h.Body = body
	return h, nil
}

// condition reads a condition value; a handler's may also be SQLWARNING,
// NOT FOUND, SQLEXCEPTION or a declared condition's name.
func (p *parser) condition(handler bool) (Condition, error) {
	t := p.peek(0)
	switch {
	case t.is("SQLSTATE"):
		p.i++
		if p.at("VALUE") {
			p.i++
		}
		s, err := p.sqlState()
		return Condition{Kind: SQLState, State: s}, err
	case t.kind == tokWord && t.text[0] >= '0' && t.text[0] <= '9':
		n, err := strconv.Atoi(t.text)
		if err != nil {
			return Condition{}, p.syntax()
		}
		if n == 0 {
			return Condition{}, errorf(1525, "HY000", "Incorrect CONDITION value: '0'")
		}
		p.i++
		return Condition{Kind: ErrorCode, Code: n}, nil
	case !handler:
		return Condition{}, p.syntax()
	case t.is("SQLWARNING"):
		p.i++
		return Condition{Kind: SQLWarning}, nil
	case t.is("SQLEXCEPTION"):
		p.i++
		return Condition{Kind: SQLException}, nil
	case t.is("NOT") && p.peek(1).is("FOUND"):
		p.i += 2
		return Condition{Kind: NotFound}, nil
	}
	name, err := p.ident()
	return Condition{Kind: Named, Name: name}, err
}

// sqlState reads a quoted SQLSTATE: five letters or digits, not of class
// 00 (success).
func (p *parser) sqlState() (string, error) {
	t := p.peek(0)
	if t.kind != tokString {
		return "", p.syntax()
	}
	p.i++
	s := unquote(t.text)
	valid := len(s) == 5 && !strings.HasPrefix(s, "00")
	for i := 0; i < len(s) && valid; i++ {
		c := s[i]
		valid = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')
	}
	if !valid {
		return "", errorf(1407, "42000", "Bad SQLSTATE: '%s'", s)
	}
	return s, nil
}

func (p *parser) ifStmt() (Stmt, error) {
	s := &If{At: p.peek(0).start}
	p.i++ // IF
	for {
		cond, err := p.expr(stopAt("THEN"))
		if err != nil {
			return nil, err
		}
		p.i++ // THEN
		body, err := p.list("ELSEIF", "ELSE", "END")
		if err != nil {
			return nil, err
		}
		s.Branches = append(s.Branches, Branch{Cond: cond, Body: body})
		if !p.at("ELSEIF") {
			break
		}
		p.i++
	}
	if p.at("ELSE") {
		p.i++
		body, err := p.list("END")
		if err != nil {
			return nil, err
		}
		s.Else = body
	}
	p.i++ // END
	return s, p.expect("IF")
}

func (p *parser) caseStmt() (Stmt, error) {
	s := &Case{At: p.peek(0).start}
	p.i++ // CASE
	if !p.at("WHEN") {
		v, err := p.expr(stopAt("WHEN"))
		if err != nil {
			return nil, err
		}
		s.Value = v
	}
	for p.at("WHEN") {
		p.i++
		cond, err := p.expr(stopAt("THEN"))
		if err != nil {
			return nil, err
		}
		p.i++ // THEN
		body, err := p.list("WHEN", "ELSE", "END")
		if err != nil {
			return nil, err
		}
		s.Whens = append(s.Whens, Branch{Cond: cond, Body: body})
	}
	if len(s.Whens) == 0 {
		return nil, p.syntax()
	}
	if p.at("ELSE") {
		p.i++
		body, err := p.list("END")
		if err != nil {
			return nil, err
		}
		s.Else, s.HasElse = body, true
	}
	if err := p.expect("END"); err != nil {
		return nil, err
	}
	return s, p.expect("CASE")
}

func (p *parser) loop(label string) (Stmt, error) {
	t := p.peek(0)
	l := &Loop{At: t.start, Label: label}
	p.i++
	var err error
	switch {
	case t.is("WHILE"):
		l.Kind = WhileLoop
		if l.Cond, err = p.expr(stopAt("DO")); err != nil {
			return nil, err
		}
		p.i++ // DO
		if l.Body, err = p.list("END"); err != nil {
			return nil, err
		}
	case t.is("REPEAT"):
		l.Kind = RepeatLoop
		if l.Body, err = p.list("UNTIL"); err != nil {
			return nil, err
		}
		p.i++ // UNTIL
		if l.Cond, err = p.expr(stopAt("END")); err != nil {
			return nil, err
		}
	default:
		if l.Body, err = p.list("END"); err != nil {
			return nil, err
		}
	}
	p.i++ // END
	if err := p.expect(t.text); err != nil {
		return nil, err
	}
	return l, p.endLabel(label)
}

func (p *parser) fetch() (Stmt, error) {
	f := &Fetch{At: p.peek(0).start}
	p.i++ // FETCH
	if p.at("NEXT") {
		p.i++
		if !p.at("FROM") {
			return nil, p.syntax()
		}
	}
	if p.at("FROM") {
		p.i++
	}
	c, err := p.ident()
	if err != nil {
		return nil, err
	}
	f.Cursor = c
	if err := p.expect("INTO"); err != nil {
		return nil, err
	}
	for {
		v, err := p.ident()
		if err != nil {
			return nil, err
		}
		f.Into = append(f.Into, v)
		if !p.atPunct(",") {
			return f, nil
		}
		p.i++
	}
}

// signalItems are the condition information items SIGNAL may set.
var signalItems = map[string]bool{
	"CLASS_ORIGIN": true, "SUBCLASS_ORIGIN": true, "MESSAGE_TEXT": true, "MYSQL_ERRNO": true,
	"CONSTRAINT_CATALOG": true, "CONSTRAINT_SCHEMA": true, "CONSTRAINT_NAME": true,
	"CATALOG_NAME": true, "SCHEMA_NAME": true, "TABLE_NAME": true, "COLUMN_NAME": true, "CURSOR_NAME": true,
}

func (p *parser) signal() (Stmt, error) {
	t := p.peek(0)
	s := &Signal{At: t.start, Resignal: t.is("RESIGNAL")}
	p.i++
	switch {
	case p.at("SQLSTATE"):
		c, err := p.condition(false)
		if err != nil {
			return nil, err
		}
		s.Cond = &c
	case p.at("SET"), p.atPunct(";"), p.eof():
		if !s.Resignal {
			return nil, p.syntax()
		}
	default:
		name, err := p.ident()
		if err != nil {
			return nil, err
		}
		s.Cond = &Condition{Kind: Named, Name: name}
	}
	if !p.at("SET") {
		return s, nil
	}
	p.i++
	seen := map[string]bool{}
	for {
		n := strings.ToUpper(p.peek(0).text)
		if p.peek(0).kind != tokWord || !signalItems[n] {
			return nil, p.syntax()
		}
		if seen[n] {
			return nil, errorf(1641, "42000", "Duplicate condition information item '%s'", n)
		}
		seen[n] = true
		p.i++
		if err := p.expectPunct("="); err != nil {
			return nil, err
		}
		e, err := p.expr(stopAt(",", ";"))
		if err != nil {
			return nil, err
		}
		s.Items = append(s.Items, Item{Name: n, Expr: e})
		if !p.atPunct(",") {
			return s, nil
		}
		p.i++
	}
}

// conditionItems and statementItems are what GET DIAGNOSTICS reads.
var (
	conditionItems = map[string]bool{
		"CLASS_ORIGIN": true, "SUBCLASS_ORIGIN": true, "RETURNED_SQLSTATE": true, "MESSAGE_TEXT": true, "MYSQL_ERRNO": true,
		"CONSTRAINT_CATALOG": true, "CONSTRAINT_SCHEMA": true, "CONSTRAINT_NAME": true,
		"CATALOG_NAME": true, "SCHEMA_NAME": true, "TABLE_NAME": true, "COLUMN_NAME": true, "CURSOR_NAME": true,
	}
	statementItems = map[string]bool{"NUMBER": true, "ROW_COUNT": true}
)

func (p *parser) diagnostics() (Stmt, error) {
	d := &Diagnostics{At: p.peek(0).start}
	p.i++ // GET
	switch {
	case p.at("CURRENT"):
		p.i++
	case p.at("STACKED"):
		d.Stacked = true
		p.i++
	}
	if err := p.expect("DIAGNOSTICS"); err != nil {
		return nil, err
	}
	items := statementItems
	if p.at("CONDITION") {
		p.i++
		t := p.peek(0)
		if t.kind != tokWord && t.kind != tokVar && t.kind != tokQuoted {
			return nil, p.syntax()
		}
		d.Condition = t.text
		p.i++
		items = conditionItems
	}
	for {
		t := p.peek(0)
		if t.kind != tokWord && t.kind != tokVar && t.kind != tokQuoted {
			return nil, p.syntax()
		}
		target := t.text
		if t.kind == tokQuoted {
			target = t.name()
		}
		p.i++
		if err := p.expectPunct("="); err != nil {
			return nil, err
		}
		n := strings.ToUpper(p.peek(0).text)
		if p.peek(0).kind != tokWord || !items[n] {
			return nil, p.syntax()
		}
		p.i++
		d.Items = append(d.Items, Item{Name: n, Expr: target})
		if !p.atPunct(",") {
			return d, nil
		}
		p.i++
	}
}
