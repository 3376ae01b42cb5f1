package devbackend

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/lang/check"
	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver: no C toolchain needed
)

// dbFormat is the database's PRAGMA user_version: the layout described in
// docs/web.md. A database of a later format is refused rather than
// misread; one of format 1, whose id counters did not count the ids that
// callers gave, is brought to format 2 when it is opened.
const dbFormat = 2

// maxCountedID is the largest id that moves a table's id counter: 2^53-1,
// the largest integer a web page holds exactly. A larger id given by a
// caller is stored but leaves the counter where it is, so one such row can
// never exhaust the counter.
const maxCountedID = 1<<53 - 1

// store is the development database: one table per contract model, each
// row a JSON object with its insertion sequence.
type store struct {
	db *sql.DB
	// writeSlot holds the one write transaction of this process at a time.
	// Writers queue on it in order, and give up when their request ends;
	// SQLite's busy timeout then only ever arbitrates between processes.
	writeSlot chan struct{}
}

// openStore opens (creating it if missing) the SQLite database at path and
// checks that it is one this backend can use.
func openStore(path string) (*store, error) {
	// A file: URI keeps any character of the path literal; the parameters
	// after ? are the driver's. WAL lets readers run beside the writer;
	// immediate transactions take the write lock at BEGIN, so a transaction
	// never has to upgrade a read lock, which SQLite would refuse at once
	// instead of waiting. The busy timeout is how long a writer waits for
	// another process's write transaction.
	dsn := (&url.URL{Scheme: "file", OmitHost: true, Path: filepath.ToSlash(path)}).String() +
		"?_busy_timeout=10000&_journal_mode=WAL&_synchronous=NORMAL&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	s := &store{db: db, writeSlot: make(chan struct{}, 1)}
	if err := s.init(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *store) init() error {
	ctx := context.Background()
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if version > dbFormat {
		return fmt.Errorf("it has format %d, and this axiom reads format %d; use a newer axiom or move the file away", version, dbFormat)
	}
	if version == dbFormat {
		return nil
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		// Another process may have done this meanwhile: read the version
		// again under the write lock.
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil || version == dbFormat {
			return err
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS axiom_ids (tbl TEXT PRIMARY KEY, last INTEGER NOT NULL)`); err != nil {
			return err
		}
		if version == 1 {
			if err := countGivenIDs(ctx, tx); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", dbFormat))
		return err
	})
}

// countGivenIDs raises the counter of every table of a format-1 database
// to the largest numeric id up to maxCountedID stored in it, which format 2
// keeps up to date as rows are created. It reads each table once.
func countGivenIDs(ctx context.Context, tx *sql.Tx) error {
	var tables []string
	rs, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND name <> 'axiom_ids'`)
	if err != nil {
		return err
	}
	for rs.Next() {
		var name string
		if err := rs.Scan(&name); err != nil {
			rs.Close()
			return err
		}
		tables = append(tables, name)
	}
	if err := errors.Join(rs.Err(), rs.Close()); err != nil {
		return err
	}
	for _, table := range tables {
		rs, err := tx.QueryContext(ctx, `SELECT data FROM `+quote(table))
		if err != nil {
			return err
		}
		var top int64
		for rs.Next() {
			var data string
			if err := rs.Scan(&data); err != nil {
				rs.Close()
				return err
			}
			v, _ := readStored([]byte(data))
			obj, _ := v.(map[string]any)
			id := obj[keyField]
			if n, ok := id.(json.Number); ok {
				id = string(n)
			}
			if n, ok := numericID(id); ok && n > top && n <= maxCountedID {
				top = n
			}
		}
		if err := errors.Join(rs.Err(), rs.Close()); err != nil {
			return err
		}
		if err := countID(ctx, tx, table, top); err != nil {
			return err
		}
	}
	return nil
}

func (s *store) close() error { return s.db.Close() }

// tableName is the table of a contract's model: "<contract-id>/<Model>",
// which no other pair gives since neither part can hold a slash.
func tableName(c *contract, m *check.Model) string { return c.id + "/" + m.Name }

// quote makes an SQL identifier of any table name.
func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// keyExpr is the SQL expression of a stored row's id, as an index and the
// lookups through it spell it: a JSON integer reads as an INTEGER and a
// JSON string as TEXT, so an Int id never matches a String one.
const keyExpr = `json_extract(data, '$.` + keyField + `')`

// ensure creates the tables of a contract's models that do not exist yet,
// with an index on the id of the models that have one.
func (s *store) ensure(ctx context.Context, c *contract) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		for _, m := range c.models {
			table := tableName(c, m)
			q := `CREATE TABLE IF NOT EXISTS ` + quote(table) +
				` (seq INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL)`
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
			if !keyed(m) {
				continue
			}
			// Two slashes: no table's name, nor another index's.
			q = `CREATE INDEX IF NOT EXISTS ` + quote(table+"/"+keyField) + ` ON ` + quote(table) + ` (` + keyExpr + `)`
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
}

// row is a stored row read under the current model.
type row struct {
	seq int64
	rec *record
}

// queryer is what reading rows needs: the database or a transaction.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// rows reads every row of a model's table in insertion order.
func rows(ctx context.Context, q queryer, table string, m *check.Model) ([]row, error) {
	rs, err := q.QueryContext(ctx, `SELECT seq, data FROM `+quote(table)+` ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []row
	for rs.Next() {
		var seq int64
		var data string
		if err := rs.Scan(&seq, &data); err != nil {
			return nil, err
		}
		out = append(out, decodeRow(seq, data, m))
	}
	return out, rs.Err()
}

// decodeRow reads a stored row under the current model. A stored value
// that no longer fits the model (the contract changed) reads as its
// field's zero value.
func decodeRow(seq int64, data string, m *check.Model) row {
	t := modelType(m)
	v, err := readStored([]byte(data))
	if err != nil {
		v = nil // an unreadable row reads as zero values
	}
	c, _ := conform(v, t, "row", false)
	rec, _ := c.(*record)
	if rec == nil {
		rec = zero(t, nil).(*record)
	}
	return row{seq: seq, rec: rec}
}

// write runs fn in an immediate transaction, the only one of this process
// at the time, and commits when it succeeds.
func (s *store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	select {
	case s.writeSlot <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.writeSlot }()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}

// findByID returns the first row, in insertion order, whose id is id,
// through the table's index: a write reads the rows it touches, never the
// whole table. ok is false when there is none.
func findByID(ctx context.Context, tx *sql.Tx, table string, m *check.Model, id any) (r row, ok bool, err error) {
	rs, err := tx.QueryContext(ctx, `SELECT seq, data FROM `+quote(table)+` WHERE `+keyExpr+` = ? ORDER BY seq`, id)
	if err != nil {
		return row{}, false, err
	}
	defer rs.Close()
	for rs.Next() {
		var seq int64
		var data string
		if err := rs.Scan(&seq, &data); err != nil {
			return row{}, false, err
		}
		// The row as it reads under the model: a stored 2.0 matches the
		// id 2 in SQL, and reads as 0 in an Int field.
		r := decodeRow(seq, data, m)
		if v, _ := r.rec.get(keyField); equal(v, id) {
			return r, true, nil
		}
	}
	return row{}, false, rs.Err()
}

// nextID returns the next generated id number of a table, one more than
// its counter, and records it. The counter stays above the ids callers gave
// (countID), so a generated id repeats none of them; one above maxCountedID
// is skipped if the counter ever gets there.
func nextID(ctx context.Context, tx *sql.Tx, table string, m *check.Model) (int64, error) {
	var last int64
	err := tx.QueryRowContext(ctx, `SELECT last FROM axiom_ids WHERE tbl = ?`, table).Scan(&last)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	for {
		if last == math.MaxInt64 {
			return 0, fmt.Errorf("table %s has used every id up to %d", table, last)
		}
		last++
		_, taken, err := findByID(ctx, tx, table, m, keyValue(m, last))
		if err != nil {
			return 0, err
		}
		if !taken {
			break
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO axiom_ids (tbl, last) VALUES (?, ?) ON CONFLICT (tbl) DO UPDATE SET last = excluded.last`, table, last)
	return last, err
}

// countID raises a table's counter to n, an id a caller gave, when n is
// above it and at most maxCountedID.
func countID(ctx context.Context, tx *sql.Tx, table string, n int64) error {
	if n <= 0 || n > maxCountedID {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO axiom_ids (tbl, last) VALUES (?, ?) ON CONFLICT (tbl) DO UPDATE SET last = max(last, excluded.last)`, table, n)
	return err
}

// keyValue is the id value of a generated id number: the number for an
// Int id, its decimal digits for a String one.
func keyValue(m *check.Model, n int64) any {
	if keyType(m).Kind == check.TInt {
		return n
	}
	return strconv.FormatInt(n, 10)
}

func insertRow(ctx context.Context, tx *sql.Tx, table string, rec *record) (int64, error) {
	data, err := marshal(rec)
	if err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO `+quote(table)+` (data) VALUES (?)`, string(data))
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

func updateRow(ctx context.Context, tx *sql.Tx, table string, seq int64, rec *record) error {
	data, err := marshal(rec)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE `+quote(table)+` SET data = ? WHERE seq = ?`, string(data), seq)
	return err
}

func deleteRow(ctx context.Context, tx *sql.Tx, table string, seq int64) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM `+quote(table)+` WHERE seq = ?`, seq)
	return err
}
