// A fake of Google's model APIs on 127.0.0.1 for the login tests (unit and e2e):
// the Gemini API and Vertex AI (any model path; streamed as SSE for
// :streamGenerateContent), an OAuth token endpoint (/token), and the Code Assist
// API that Log in with Google reaches (/v1internal:loadCodeAssist and its model
// calls, answers wrapped in {"response": ...}). Every request is recorded (its
// path, x-goog-api-key and Authorization headers) and answered with one line of text.
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRequest { path: string; key?: string; authorization?: string }

export interface FakeGemini {
  url: string;
  requests: FakeRequest[];
  /** The :streamGenerateContent requests: the prompts that reached the model. */
  prompts(): FakeRequest[];
  close(): Promise<void>;
}

export async function fakeGemini(text: string): Promise<FakeGemini> {
  const requests: FakeRequest[] = [];
  const answer = { candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }] };
  let tokens = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const header = (name: string) => { const v = req.headers[name]; return typeof v === "string" ? v : undefined; };
      const path = req.url ?? "";
      requests.push({ path, key: header("x-goog-api-key"), authorization: header("authorization") });
      const json = (body: unknown) => { res.writeHead(200, { "content-type": "application/json" }); res.end(JSON.stringify(body)); };
      if (path.startsWith("/token")) {
        return json({ access_token: `access-${++tokens}`, refresh_token: "refresh-fake", expires_in: 3600, token_type: "Bearer" });
      }
      if (path.includes(":loadCodeAssist")) return json({ currentTier: { id: "standard-tier" }, cloudaicompanionProject: "fake-project" });
      const reply = JSON.stringify(path.startsWith("/v1internal") ? { response: answer, traceId: "t" } : answer);
      const streamed = path.includes(":streamGenerateContent");
      res.writeHead(200, { "content-type": streamed ? "text/event-stream" : "application/json" });
      res.end(streamed ? `data: ${reply}\r\n\r\n` : reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    prompts: () => requests.filter((r) => r.path.includes(":streamGenerateContent")),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
