// Pending `session/request_permission` calls. Each waits for the person to pick
// one of the agent's own options (from the chat card or the inline CodeLens);
// nothing is answered by default. Cancelling the turn answers `cancelled`.
import type * as acp from "@agentclientprotocol/sdk";

interface Pending {
  request: acp.RequestPermissionRequest;
  resolve: (response: acp.RequestPermissionResponse) => void;
}

export class PermissionBroker {
  private pending = new Map<string, Pending>();
  private nextId = 1;

  /** Called when a request arrives; `id` names it for `answer`. */
  onRequest: (id: string, request: acp.RequestPermissionRequest) => void = () => {};
  /** Called when a request is settled, whatever settled it. */
  onSettled: (id: string, request: acp.RequestPermissionRequest, optionId: string | undefined) => void = () => {};

  /** `signal`: Lathe withdrew the question ($/cancel_request); it is settled as cancelled. */
  request(request: acp.RequestPermissionRequest, signal?: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const id = `perm-${this.nextId++}`;
    return new Promise((resolve) => {
      this.pending.set(id, { request, resolve });
      signal?.addEventListener("abort", () => this.settle(id, undefined), { once: true });
      this.onRequest(id, request);
    });
  }

  private settle(id: string, optionId: string | undefined): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    p.resolve(optionId ? { outcome: { outcome: "selected", optionId } } : { outcome: { outcome: "cancelled" } });
    this.onSettled(id, p.request, optionId);
  }

  /** Answers with one of the offered options; returns false when unknown. */
  answer(id: string, optionId: string): boolean {
    const p = this.pending.get(id);
    if (!p || !p.request.options.some((o) => o.optionId === optionId)) return false;
    this.settle(id, optionId);
    return true;
  }

  /** Answers with the first option of the given kind (Accept / Reject buttons). */
  answerKind(id: string, kinds: acp.PermissionOptionKind[]): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    for (const kind of kinds) {
      const option = p.request.options.find((o) => o.kind === kind);
      if (option) return this.answer(id, option.optionId);
    }
    return false;
  }

  /** Answers `cancelled` to the pending requests of one session (a sub-agent the person stopped). */
  cancelSession(sessionId: string): void {
    for (const [id, p] of this.pending) {
      if (p.request.sessionId !== sessionId) continue;
      this.pending.delete(id);
      p.resolve({ outcome: { outcome: "cancelled" } });
      this.onSettled(id, p.request, undefined);
    }
  }

  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, undefined);
  }
}
