// Questions the agent asks the person (ACP elicitation/create): a form read
// from the request's schema (ask_user, an MCP server's own questions) or a
// URL to open. Pure (no vscode), so tests feed it schemas; the broker keeps
// each question until the person answers it, the turn withdraws it
// ($/cancel_request) or the chat goes.
import type * as acp from "@agentclientprotocol/sdk";

export interface FormField {
  name: string;
  title: string;
  description?: string;
  /** text (a string, maybe with a format), number, integer, boolean, choice (one), multi (several). */
  type: "text" | "number" | "integer" | "boolean" | "choice" | "multi";
  required: boolean;
  options?: { value: string; title: string }[];
  format?: string;
  minimum?: number;
  maximum?: number;
  default?: string | number | boolean | string[];
}

/** What the person typed or picked, by field name, as the form gives it. */
export type FormValues = Record<string, string | string[] | boolean | undefined>;

type Schema = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const num = (v: unknown) => (typeof v === "number" ? v : undefined);

function choices(list: unknown): { value: string; title: string }[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.map((o) => (typeof o === "string" ? { value: o, title: o }
    : { value: String((o as Schema).const), title: String((o as Schema).title ?? (o as Schema).const) }));
}

/** The form's fields, in the schema's order; a property of a type ACP does not define is shown as text. */
export function formFields(schema: unknown): FormField[] {
  const s = (schema ?? {}) as Schema;
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  return Object.entries(props).map(([name, p]) => {
    const base = { name, title: str(p.title) ?? name, description: str(p.description), required: required.has(name) };
    const dflt = p.default as FormField["default"];
    switch (p.type) {
      case "boolean": return { ...base, type: "boolean", default: dflt };
      case "number":
      case "integer": return { ...base, type: p.type, minimum: num(p.minimum), maximum: num(p.maximum), default: dflt };
      case "array": {
        const items = (p.items ?? {}) as Schema;
        return { ...base, type: "multi", options: choices(items.anyOf ?? items.enum) ?? [], default: dflt };
      }
      default: {
        const options = choices(p.oneOf ?? p.enum);
        if (options) return { ...base, type: "choice", options, default: dflt };
        return { ...base, type: "text", format: str(p.format), default: dflt };
      }
    }
  });
}

/**
 * The answer content for what the person gave, or the first problem in words
 * naming the field. Empty answers are left out; a required field must be given.
 */
export type FormContent = Record<string, acp.ElicitationContentValue>;

export function formContent(fields: FormField[], values: FormValues): { content: FormContent } | { error: string } {
  const content: FormContent = {};
  for (const f of fields) {
    const v = values[f.name];
    const empty = v === undefined || v === "" || (Array.isArray(v) && v.length === 0);
    if (f.type === "boolean") { content[f.name] = v === true; continue; }
    if (empty) {
      if (f.required) return { error: `${f.title}: an answer is needed` };
      continue;
    }
    if (f.type === "number" || f.type === "integer") {
      const n = Number(v);
      if (!Number.isFinite(n) || (f.type === "integer" && !Number.isInteger(n))) return { error: `${f.title}: must be ${f.type === "integer" ? "a whole number" : "a number"}` };
      if (f.minimum !== undefined && n < f.minimum) return { error: `${f.title}: at least ${f.minimum}` };
      if (f.maximum !== undefined && n > f.maximum) return { error: `${f.title}: at most ${f.maximum}` };
      content[f.name] = n;
    } else if (f.type === "multi") {
      content[f.name] = Array.isArray(v) ? v : [String(v)];
    } else {
      content[f.name] = String(v);
    }
  }
  return { content };
}

/** A short line of what was answered, for the card once it is settled. */
export function answerSummary(fields: FormField[], content: FormContent): string {
  const parts: string[] = [];
  for (const f of fields) {
    const v = content[f.name];
    if (v === undefined || (f.type === "boolean" && v === false && !f.required)) continue;
    const shown = Array.isArray(v) ? v.map((x) => f.options?.find((o) => o.value === x)?.title ?? x).join(", ")
      : f.type === "choice" ? f.options?.find((o) => o.value === v)?.title ?? String(v) : String(v);
    parts.push(`${f.title}: ${shown}`);
  }
  return parts.join(" · ") || "No answers given";
}

interface Pending {
  request: acp.CreateElicitationRequest;
  fields: FormField[];
  resolve: (response: acp.CreateElicitationResponse) => void;
}

export type Settlement = "accept" | "decline" | "cancel" | "withdrawn";

export class ElicitationBroker {
  private pending = new Map<string, Pending>();
  private nextId = 1;

  /** A question arrived; `id` names it for `answer`. */
  onRequest: (id: string, request: acp.CreateElicitationRequest, fields: FormField[]) => void = () => {};
  /** A question was settled: answered (with what), declined, cancelled, or withdrawn by the agent. */
  onSettled: (id: string, how: Settlement, summary?: string) => void = () => {};

  request(request: acp.CreateElicitationRequest, signal?: AbortSignal): Promise<acp.CreateElicitationResponse> {
    const id = `ask-${this.nextId++}`;
    const fields = request.mode === "form" ? formFields((request as { requestedSchema?: unknown }).requestedSchema) : [];
    return new Promise((resolve, reject) => {
      this.pending.set(id, { request, fields, resolve });
      signal?.addEventListener("abort", () => {
        if (!this.pending.delete(id)) return;
        this.onSettled(id, "withdrawn");
        reject(signal.reason ?? new Error("withdrawn"));
      }, { once: true });
      this.onRequest(id, request, fields);
    });
  }

  /** Accepts with the person's values; an error (the form stays open) when they do not fit the form. */
  accept(id: string, values: FormValues): string | undefined {
    const p = this.pending.get(id);
    if (!p) return "This question is no longer open.";
    if (p.request.mode !== "form") return this.settle(id, { action: "accept" }, "accept", "Opened");
    const made = formContent(p.fields, values);
    if ("error" in made) return made.error;
    return this.settle(id, { action: "accept", content: made.content }, "accept", answerSummary(p.fields, made.content));
  }

  decline(id: string): void { this.settle(id, { action: "decline" }, "decline"); }
  cancel(id: string): void { this.settle(id, { action: "cancel" }, "cancel"); }

  /** The chat goes (a new session, Stop, Lathe exited): every open question is cancelled. */
  cancelAll(): void { for (const id of [...this.pending.keys()]) this.cancel(id); }

  private settle(id: string, response: acp.CreateElicitationResponse, how: Settlement, summary?: string): undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    p.resolve(response);
    this.onSettled(id, how, summary);
    return undefined;
  }
}
