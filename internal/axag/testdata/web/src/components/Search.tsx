import { useState } from "react";

type Props<T> = { items: Array<T> };

export function Search<T>(props: Props<T>) {
  const [q, setQ] = useState<string>("");
  const ok = props.items.length > 0 && q.length < 100;
  return (
    <>
      <input
        axag-intent="task.search"
        axag-action-type="read"
        axag-description="Search tasks by text"
        axag-risk-level="none"
        axag-scope="public"
        axag-required-parameters='[{"name":"query","type":"string","maxLength":100}]'
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      <a href="/settings" axag-intent="settings.open" axag-action-type="navigate" axag-description="Open settings" axag-risk-level="none" axag-scope="user" />
    </>
  );
}
