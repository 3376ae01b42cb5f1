package publish

import (
	"errors"
	"os"
)

// Finisher is what a committed apply means beyond the project's files,
// which the caller keeps: the id of the snapshot the files now have, the
// request's record, and the candidate marked applied.
type Finisher struct {
	// ResultSnapshot is the id of the snapshot of the files on disk now,
	// for a receipt written here.
	ResultSnapshot func() string
	// Record stores the request's answer, the receipt, under its
	// request_id.
	Record func(r *Receipt) error
	// MarkApplied marks the candidate applied with the receipt.
	MarkApplied func(r *Receipt) error
}

// Finish ends a committed apply: the receipt (kept if one was written
// already), the request record, the candidate marked applied, then the
// journal removed, with a failpoint after each step. Each step can be
// redone: a kill between two of them is finished by the next reconcile's
// Finish. The caller holds the publish lock.
func (p *Publisher) Finish(e *Entry, f Finisher) (*Receipt, error) {
	r, err := p.ReadReceipt(e.ReceiptID)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		r = e.Receipt(Applied, f.ResultSnapshot())
		if err := p.WriteReceipt(r); err != nil {
			return nil, err
		}
	}
	if err := p.points.pass("after_receipt"); err != nil {
		return nil, err
	}
	if err := f.Record(r); err != nil {
		return nil, err
	}
	if err := p.points.pass("after_record"); err != nil {
		return nil, err
	}
	if err := f.MarkApplied(r); err != nil {
		return nil, err
	}
	if err := p.points.pass("after_candidate"); err != nil {
		return nil, err
	}
	return r, p.Remove(e)
}
