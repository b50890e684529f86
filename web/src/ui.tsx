import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useId, useState } from 'preact/hooks';
import type { ApiError } from './api';

/** Loads data with `load`, again whenever `deps` change or `reload()` is called. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): {
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
  reload: () => void;
} {
  const [state, setState] = useState<{ data: T | undefined; error: ApiError | null; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: unknown) => live && setState({ data: undefined, error: toError(error), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { ...state, reload: useCallback(() => setTick((t) => t + 1), []) };
}

function toError(error: unknown): ApiError {
  if (typeof error === 'object' && error !== null && 'type' in error && 'message' in error) return error as ApiError;
  return { type: 'internal_error', message: error instanceof Error ? error.message : String(error), docs: '' };
}

/** Unwraps an openapi-fetch result: the data, or the API's error thrown for useLoad / useAction. */
export function must<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.error !== undefined || r.data === undefined) {
    const e = r.error as { error?: ApiError } | undefined;
    throw e?.error ?? { type: 'internal_error', message: `HTTP ${r.response.status}`, docs: '' };
  }
  return r.data;
}

/** Runs one action at a time, keeping its error for the form to show next to the field it names. */
export function useAction(): {
  busy: boolean;
  error: ApiError | null;
  run: (fn: () => Promise<void>) => Promise<void>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = useCallback(async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(toError(e));
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: useCallback(() => setError(null), []) };
}

/** An API error as a message; with `field`, only when the error names that field (or names none, when `fallback`). */
export function ErrorText({ error, field, id }: { error: ApiError | null; field?: string; id?: string }) {
  if (error === null) return null;
  if (field !== undefined && error.field !== field) return null;
  return (
    <p class="error" role="alert" id={id}>
      {error.message}
      {error.field !== undefined && field === undefined ? <span class="muted"> ({error.field})</span> : null}
    </p>
  );
}

/** A labelled input with the API's error for its field shown under it. */
export function Field(props: {
  label: string;
  name: string;
  value: string;
  onInput: (v: string) => void;
  error?: ApiError | null;
  field?: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'datetime-local' | 'month';
  placeholder?: string;
  hint?: string;
  required?: boolean;
  autoComplete?: string;
}) {
  const id = useId();
  const field = props.field ?? props.name;
  const invalid = props.error?.field === field;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        placeholder={props.placeholder}
        required={props.required}
        autoComplete={props.autoComplete}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onInput={(e) => props.onInput((e.target as HTMLInputElement).value)}
      />
      {props.hint ? <small class="muted">{props.hint}</small> : null}
      {props.error ? <ErrorText error={props.error} field={field} id={`${id}-error`} /> : null}
    </div>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="small"
      aria-label={copied ? 'Copied' : `${label}: ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        } catch {
          setCopied(false);
        }
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

/** A secret shown once (an API key, an SMTP password, a webhook secret), with a copy button. */
export function ShownOnce({ title, value, children }: { title: string; value: string; children?: ComponentChildren }) {
  const id = useId();
  return (
    <div class="shown-once" role="status">
      <label for={id}>
        <strong>{title}</strong> — shown once: copy it now, it cannot be shown again.
      </label>
      <div class="copy-row">
        <input
          id={id}
          readOnly
          value={value}
          class="mono"
          data-secret=""
          onFocus={(e) => (e.target as HTMLInputElement).select()}
        />
        <CopyButton text={value} />
      </div>
      {children}
    </div>
  );
}

const TONE: Record<string, string> = {
  verified: 'ok',
  ok: 'ok',
  delivered: 'ok',
  active: 'ok',
  pending: 'warn',
  warning: 'warn',
  deferred: 'warn',
  queued: 'info',
  scheduled: 'info',
  unknown: 'info',
  unverified: 'bad',
  missing: 'bad',
  mismatch: 'bad',
  failed: 'bad',
  rejected: 'bad',
  suppressed: 'bad',
  disabled: 'bad',
};

export function Badge({ value }: { value: string }) {
  return <span class={`badge ${TONE[value] ?? 'info'}`}>{value}</span>;
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="empty">{children}</div>;
}

export function Loading() {
  return (
    <p class="muted" role="status">
      Loading…
    </p>
  );
}

export function when(ts: string | null | undefined): string {
  if (ts === null || ts === undefined) return '—';
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts : d.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

export function percent(rate: number | null): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(rate < 0.01 ? 3 : 2)}%`;
}
