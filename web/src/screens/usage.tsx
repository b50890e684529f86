import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { navigate } from '../router';
import { ErrorText, Loading, must, percent, useLoad } from '../ui';

const SERIES = [
  ['accepted', 'Accepted', 'var(--c-accepted)'],
  ['delivered', 'Delivered', 'var(--c-delivered)'],
  ['failed', 'Failed', 'var(--c-failed)'],
  ['complained', 'Complained', 'var(--c-complained)'],
] as const;

/** Usage: the month against the quota, sends per day, the complaint rate against the 0.1% line. */
export function Usage({ query }: { query: string }) {
  const month = new URLSearchParams(query).get('month') ?? '';
  const usage = useLoad(
    async () => must(await api.GET('/v1/usage', { params: { query: month === '' ? {} : { month } } })),
    [month],
  );
  const u = usage.data;
  return (
    <section>
      <h1>Usage</h1>
      <p>
        <label>
          Month{' '}
          <input
            type="month"
            value={month || u?.month || ''}
            onChange={(e) => navigate(`/usage?month=${(e.target as HTMLInputElement).value}`, true)}
          />
        </label>
      </p>
      {usage.loading && u === undefined ? <Loading /> : null}
      <ErrorText error={usage.error} />
      {u ? (
        <>
          <div class="stats">
            <div class="card stat">
              <h2>Sent in {u.month}</h2>
              <p class="big">
                {u.accepted.toLocaleString('en')}
                {u.quota !== null ? <span class="muted"> of {u.quota.toLocaleString('en')}</span> : null}
              </p>
              {u.quota !== null ? (
                <progress
                  max={u.quota}
                  value={Math.min(u.accepted, u.quota)}
                  aria-label="Share of the monthly quota used"
                >
                  {Math.round((u.accepted / u.quota) * 100)}%
                </progress>
              ) : (
                <p class="muted">No monthly quota.</p>
              )}
            </div>
            <div class="card stat">
              <h2>Complaint rate</h2>
              <p
                class={`big ${u.complaint_rate.rate !== null && u.complaint_rate.rate >= u.complaint_rate.threshold ? 'bad' : ''}`}
              >
                {percent(u.complaint_rate.rate)}
              </p>
              <p class="muted">
                {u.complaint_rate.complaints} complaints of {u.complaint_rate.delivered} delivered in{' '}
                {u.complaint_rate.window_days} days; limit {percent(u.complaint_rate.threshold)}, warning at{' '}
                {percent(u.complaint_rate.warning_at)}
                {u.complaint_rate.rate === null ? ` (measured from ${u.complaint_rate.min_delivered} delivered)` : ''}.
              </p>
              <RateBar rate={u.complaint_rate.rate} threshold={u.complaint_rate.threshold} />
            </div>
          </div>
          <div class="card">
            <h2>Per day</h2>
            <Chart days={u.days} />
          </div>
        </>
      ) : null}
    </section>
  );
}

/** The rate on a scale of twice the limit, with the limit (0.1%) drawn as a line. */
function RateBar({ rate, threshold }: { rate: number | null; threshold: number }) {
  const scale = threshold * 2;
  const x = rate === null ? 0 : Math.min(1, rate / scale) * 300;
  return (
    <>
      <svg
        viewBox="0 0 300 24"
        class="ratebar"
        role="img"
        aria-label={`complaint rate ${percent(rate)} against the ${percent(threshold)} limit`}
      >
        <rect width="300" height="16" y="4" class="track" />
        <rect width={x} height="16" y="4" class={rate !== null && rate >= threshold ? 'over' : 'under'} />
        <line x1="150" x2="150" y1="0" y2="24" class="limit" />
      </svg>
      <p class="muted small">The line is the {percent(threshold)} limit; the bar ends at twice it.</p>
    </>
  );
}

type Day = { date: string; accepted: number; delivered: number; failed: number; complained: number };

/** Grouped bars per day, drawn as inline SVG (no chart library for four series). */
function Chart({ days }: { days: Day[] }) {
  // As wide as the card: each day's slot grows to fill it, and never narrows below 24 px (a phone
  // scrolls the chart sideways instead). Measured, since SVG text must not stretch with a viewBox.
  const wrap = useRef<HTMLDivElement>(null);
  const [available, setAvailable] = useState(0);
  useEffect(() => {
    const el = wrap.current;
    if (el === null) return;
    const measure = (): void => setAvailable(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [days.length > 0]);
  if (days.length === 0) return <p class="muted">Nothing sent this month yet.</p>;
  const max = Math.max(1, ...days.flatMap((d) => SERIES.map(([k]) => d[k])));
  const w = Math.max(24, Math.floor((available - 40) / days.length));
  const bar = (w - 4) / SERIES.length;
  const width = days.length * w + 40;
  const h = 160;
  return (
    <>
      <ul class="legend">
        {SERIES.map(([k, label, color]) => (
          <li key={k}>
            <span class="swatch" style={{ background: color }} /> {label}
          </li>
        ))}
      </ul>
      <div class="chart-wrap" tabIndex={0} ref={wrap}>
        <svg
          viewBox={`0 0 ${width} ${h + 24}`}
          width={width}
          height={h + 24}
          role="img"
          aria-label="Messages per day: accepted, delivered, failed, complained"
        >
          <text x="0" y="10" class="axis">
            {max}
          </text>
          <line x1="36" x2={width} y1={h} y2={h} class="base" />
          {days.map((d, i) => (
            <g key={d.date} transform={`translate(${40 + i * w},0)`}>
              <title>
                {d.date}: {d.accepted} accepted, {d.delivered} delivered, {d.failed} failed, {d.complained} complained
              </title>
              {SERIES.map(([k, , color], j) => {
                const bh = (d[k] / max) * (h - 14);
                return (
                  <rect key={k} x={2 + j * bar} y={h - bh} width={bar * 0.9} height={bh} style={{ fill: color }} />
                );
              })}
              {i % 5 === 0 ? (
                <text x="0" y={h + 16} class="axis">
                  {d.date.slice(8)}
                </text>
              ) : null}
            </g>
          ))}
        </svg>
      </div>
    </>
  );
}
