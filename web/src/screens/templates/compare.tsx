import { diffLines, diffWordsWithSpace } from 'diff';
import type { ComponentChildren } from 'preact';

/** One version's sources, as GET /v1/templates/{name}?version=N gives them. */
export interface Sources {
  version: number;
  subject: string;
  html: string | null;
  text: string | null;
}

interface Side {
  line: number;
  text: string;
  changed: boolean;
}
interface Row {
  left: Side | null;
  right: Side | null;
}

const lines = (value: string): string[] => {
  const out = value.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
};

/**
 * Lines side by side from jsdiff's line diff: unchanged lines on both sides, a run of removed
 * lines beside the run of added lines that replaced it, and what is left of the longer run alone.
 */
export function sideBySide(before: string, after: string): Row[] {
  const rows: Row[] = [];
  let l = 0;
  let r = 0;
  const parts = diffLines(before, after);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part.added && !part.removed) {
      for (const text of lines(part.value))
        rows.push({ left: { line: ++l, text, changed: false }, right: { line: ++r, text, changed: false } });
      continue;
    }
    const removed = part.removed ? lines(part.value) : [];
    const next = parts[i + 1];
    const added = part.added ? lines(part.value) : next?.added ? lines(next.value) : [];
    if (part.removed && next?.added) i++;
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      rows.push({
        left: k < removed.length ? { line: ++l, text: removed[k]!, changed: true } : null,
        right: k < added.length ? { line: ++r, text: added[k]!, changed: true } : null,
      });
    }
  }
  return rows;
}

/** A changed line beside its replacement, with the words that differ marked (del on the left, ins on the right). */
function words(before: string, after: string, side: 'left' | 'right'): ComponentChildren {
  return diffWordsWithSpace(before, after).map((p, i) => {
    if (side === 'left' && p.added) return null;
    if (side === 'right' && p.removed) return null;
    if (p.removed) return <del key={i}>{p.value}</del>;
    if (p.added) return <ins key={i}>{p.value}</ins>;
    return p.value;
  });
}

function Cell({ side, other, which }: { side: Side | null; other: Side | null; which: 'left' | 'right' }) {
  if (side === null)
    return (
      <>
        <td class="ln" />
        <td class="code empty-side" />
      </>
    );
  const content =
    side.changed && other !== null
      ? which === 'left'
        ? words(side.text, other.text, 'left')
        : words(other.text, side.text, 'right')
      : side.changed
        ? which === 'left'
          ? [<del key="d">{side.text}</del>]
          : [<ins key="i">{side.text}</ins>]
        : side.text;
  return (
    <>
      <td class="ln">{side.line}</td>
      <td class={`code${side.changed ? (which === 'left' ? ' removed' : ' added') : ''}`}>{content}</td>
    </>
  );
}

function PartDiff({
  title,
  before,
  after,
  a,
  b,
}: {
  title: string;
  before: string;
  after: string;
  a: number;
  b: number;
}) {
  if (before === after)
    return (
      <p>
        <strong>{title}</strong>: <span class="muted">no change</span>
      </p>
    );
  const rows = sideBySide(before, after);
  return (
    <div class="table-wrap" tabIndex={0}>
      <table class="diff">
        <caption>
          {title}: version {a} (left) and version {b} (right)
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <span class="sr-only">Line in version {a}</span>
            </th>
            <th scope="col">Version {a}</th>
            <th scope="col">
              <span class="sr-only">Line in version {b}</span>
            </th>
            <th scope="col">Version {b}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              <Cell side={row.left} other={row.right} which="left" />
              <Cell side={row.right} other={row.left} which="right" />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Two versions side by side, part by part: removed text struck through on the left, added text on the right. */
export function Compare({ from, to }: { from: Sources; to: Sources }) {
  const part = (s: Sources, p: 'subject' | 'html' | 'text'): string => s[p] ?? '';
  return (
    <div class="compare" aria-label={`Version ${from.version} and version ${to.version} side by side`} role="group">
      <PartDiff
        title="Subject"
        before={part(from, 'subject')}
        after={part(to, 'subject')}
        a={from.version}
        b={to.version}
      />
      <PartDiff title="HTML" before={part(from, 'html')} after={part(to, 'html')} a={from.version} b={to.version} />
      <PartDiff title="Text" before={part(from, 'text')} after={part(to, 'text')} a={from.version} b={to.version} />
    </div>
  );
}
