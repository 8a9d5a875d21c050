package lang

import "fmt"

// Parse reads a whole script. The error, if any, is a *SyntaxError.
func Parse(src string) (*Program, error) {
	p := &parser{lx: lexer{src: src, line: 1, col: 1}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	stmts, err := p.stmts(false)
	if err != nil {
		return nil, err
	}
	return &Program{Stmts: stmts}, nil
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 200

type parser struct {
	lx    lexer
	tok   token
	depth int
}

func (p *parser) advance() error {
	t, err := p.lx.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Pos: p.tok.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) is(op string) bool { return p.tok.kind == tOp && p.tok.text == op }

func (p *parser) expect(op string) error {
	if !p.is(op) {
		return p.errorf("expected '%s' but found %s", op, p.tok.describe())
	}
	return p.advance()
}

func (p *parser) skipNewlines() error {
	for p.tok.kind == tNewline || p.is(";") {
		if err := p.advance(); err != nil {
			return err
		}
	}
	return nil
}

// stmts reads statements up to the end of the script or, inside a block,
// up to the closing brace (left for the caller).
func (p *parser) stmts(inBlock bool) ([]Stmt, error) {
	var out []Stmt
	for {
		if err := p.skipNewlines(); err != nil {
			return nil, err
		}
		if p.tok.kind == tEOF {
			if inBlock {
				return nil, p.errorf("expected '}' but found end of script")
			}
			return out, nil
		}
		if inBlock && p.is("}") {
			return out, nil
		}
		s, err := p.stmt()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		switch {
		case p.tok.kind == tNewline || p.is(";") || p.tok.kind == tEOF || inBlock && p.is("}"):
		default:
			return nil, p.errorf("expected end of statement but found %s", p.tok.describe())
		}
	}
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errorf("nesting deeper than %d", maxDepth)
	}
	return nil
}

func (p *parser) stmt() (Stmt, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	at := p.tok.pos
	if p.tok.kind == tIdent {
		switch p.tok.text {
		case "while":
			return p.whileStmt(at)
		case "for":
			return p.forStmt(at)
		case "if":
			return p.ifStmt(at)
		case "else", "in":
			return nil, p.errorf("unexpected '%s'", p.tok.text)
		}
		// An assignment is a name followed by = or <-; peek by saving the lexer.
		saved, savedTok := p.lx, p.tok
		name := p.tok.text
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.is("=") || p.is("<-") {
			if isKeyword(name) {
				return nil, &SyntaxError{Pos: at, Msg: fmt.Sprintf("cannot assign to '%s'", name)}
			}
			if err := p.advance(); err != nil {
				return nil, err
			}
			v, err := p.expr()
			if err != nil {
				return nil, err
			}
			return &Assign{At: at, Name: name, Value: v}, nil
		}
		p.lx, p.tok = saved, savedTok
	}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	return &ExprStmt{At: at, X: x}, nil
}

func isKeyword(s string) bool {
	switch s {
	case "while", "for", "if", "else", "in", "TRUE", "FALSE":
		return true
	}
	return false
}

func (p *parser) block() ([]Stmt, error) {
	if err := p.skipLines(); err != nil {
		return nil, err
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	body, err := p.stmts(true)
	if err != nil {
		return nil, err
	}
	return body, p.expect("}")
}

// skipLines skips newlines only (a ';' between a header and its block is
// an error, as in R).
func (p *parser) skipLines() error {
	for p.tok.kind == tNewline {
		if err := p.advance(); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) cond() (Expr, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	c, err := p.expr()
	if err != nil {
		return nil, err
	}
	return c, p.expect(")")
}

func (p *parser) whileStmt(at Pos) (Stmt, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	c, err := p.cond()
	if err != nil {
		return nil, err
	}
	body, err := p.block()
	if err != nil {
		return nil, err
	}
	return &While{At: at, Cond: c, Body: body}, nil
}

func (p *parser) forStmt(at Pos) (Stmt, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	if err := p.expect("("); err != nil {
		return nil, err
	}
	if p.tok.kind != tIdent || isKeyword(p.tok.text) {
		return nil, p.errorf("expected loop variable but found %s", p.tok.describe())
	}
	name := p.tok.text
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.kind != tIdent || p.tok.text != "in" {
		return nil, p.errorf("expected 'in' but found %s", p.tok.describe())
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	from, err := p.binary(precAdd)
	if err != nil {
		return nil, err
	}
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	to, err := p.binary(precAdd)
	if err != nil {
		return nil, err
	}
	if err := p.expect(")"); err != nil {
		return nil, err
	}
	body, err := p.block()
	if err != nil {
		return nil, err
	}
	return &For{At: at, Var: name, From: from, To: to, Body: body}, nil
}

func (p *parser) ifStmt(at Pos) (Stmt, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	c, err := p.cond()
	if err != nil {
		return nil, err
	}
	then, err := p.block()
	if err != nil {
		return nil, err
	}
	s := &If{At: at, Cond: c, Then: then}
	// Allow "else" on the line after the closing brace; restore the lexer
	// when none follows so the newline still ends the statement.
	saved, savedTok := p.lx, p.tok
	if err := p.skipLines(); err != nil {
		return nil, err
	}
	if p.tok.kind != tIdent || p.tok.text != "else" {
		p.lx, p.tok = saved, savedTok
		return s, nil
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.kind == tIdent && p.tok.text == "if" {
		inner, err := p.ifStmt(p.tok.pos)
		if err != nil {
			return nil, err
		}
		s.Else = []Stmt{inner}
		return s, nil
	}
	s.Else, err = p.block()
	return s, err
}

// Binding strength of the binary operators, loosest first.
const (
	precOr = iota + 1
	precAnd
	precNot
	precCmp
	precAdd
	precMul
	precMatMul
	precUnary
	precPow
)

func binaryPrec(op string) int {
	switch op {
	case "||", "|":
		return precOr
	case "&&", "&":
		return precAnd
	case "==", "!=", "<", "<=", ">", ">=":
		return precCmp
	case "+", "-":
		return precAdd
	case "*", "/":
		return precMul
	case "%*%":
		return precMatMul
	case "^":
		return precPow
	}
	return 0
}

func (p *parser) expr() (Expr, error) { return p.binary(precOr) }

// binary parses operators binding at least as tightly as min by
// precedence climbing; ^ is right associative, the rest left.
func (p *parser) binary(min int) (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	left, err := p.unary(min)
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tOp {
		op := p.tok.text
		prec := binaryPrec(op)
		if prec == 0 || prec < min {
			break
		}
		at := p.tok.pos
		if err := p.advance(); err != nil {
			return nil, err
		}
		if err := p.skipLines(); err != nil {
			return nil, err
		}
		next := prec + 1
		if op == "^" {
			next = prec
		}
		right, err := p.binary(next)
		if err != nil {
			return nil, err
		}
		left = &Binary{At: at, Op: op, L: left, R: right}
	}
	return left, nil
}

func (p *parser) unary(min int) (Expr, error) {
	at := p.tok.pos
	switch {
	case p.is("!") && min <= precNot:
		if err := p.advance(); err != nil {
			return nil, err
		}
		x, err := p.binary(precNot)
		if err != nil {
			return nil, err
		}
		return &Unary{At: at, Op: "!", X: x}, nil
	case p.is("-") || p.is("+"):
		op := p.tok.text
		if err := p.advance(); err != nil {
			return nil, err
		}
		x, err := p.binary(precUnary)
		if err != nil {
			return nil, err
		}
		if op == "+" {
			return x, nil
		}
		return &Unary{At: at, Op: "-", X: x}, nil
	case p.is("!"):
		return nil, p.errorf("'!' needs parentheses here")
	}
	return p.primary()
}

func (p *parser) primary() (Expr, error) {
	t := p.tok
	switch t.kind {
	case tNum:
		return &Num{At: t.pos, Value: t.num}, p.advance()
	case tStr:
		return &Str{At: t.pos, Value: t.text}, p.advance()
	case tSession:
		return &Ident{At: t.pos, Name: t.text, Session: true}, p.advance()
	case tIdent:
		switch t.text {
		case "TRUE":
			return &Num{At: t.pos, Value: 1}, p.advance()
		case "FALSE":
			return &Num{At: t.pos, Value: 0}, p.advance()
		}
		if isKeyword(t.text) {
			return nil, p.errorf("unexpected '%s'", t.text)
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		if !p.is("(") {
			return &Ident{At: t.pos, Name: t.text}, nil
		}
		return p.call(t)
	case tOp:
		if t.text == "(" {
			if err := p.advance(); err != nil {
				return nil, err
			}
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			return x, p.expect(")")
		}
	}
	return nil, p.errorf("expected an expression but found %s", t.describe())
}

func (p *parser) call(name token) (Expr, error) {
	if err := p.advance(); err != nil { // the '('
		return nil, err
	}
	c := &Call{At: name.pos, Name: name.text}
	if p.is(")") {
		return c, p.advance()
	}
	for {
		a, err := p.expr()
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, a)
		if p.is(")") {
			return c, p.advance()
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
	}
}
