import React from "react";

// A comparison must not start a tag: if (a < b) ...
export function Board({ tasks, onMove, ...rest }) {
  const label = "<button axag-intent=\"string.ignored\">";
  const n = tasks.length < 3 ? 1 : 2;
  return (
    <section axag-scope="user" {...rest}>
      {/* <button axag-intent="comment.ignored" axag-action-type="read" /> */}
      {tasks.map((t) => (
        <Card key={t.id} title={`${t.title} ({t.id})`} style={{ color: "red", margin: { top: 1 } }} />
      ))}
      <button
        onClick={() => onMove({ to: "done", note: "it's } done" })}
        axag-intent="task.move"
        axag-action-type={"write"}
        axag-description='Move a task to another column'
        axag-risk-level="medium"
        axag-idempotent={true}
        axag-required-parameters={["id", "column"]}
      >
        Move it's
      </button>
      <Modal footer={<button axag-intent="board.archive" axag-action-type="write" axag-risk-level="high"
        axag-confirmation-required="true" axag-idempotent="true" axag-description="Archive the board" />} />
    </section>
  );
}
