// A fake Gemini API on 127.0.0.1 for the login tests (unit and e2e): every
// request is recorded (its path and x-goog-api-key header) and answered with
// one line of text, streamed as SSE for :streamGenerateContent.
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeGemini {
  url: string;
  requests: { path: string; key?: string }[];
  /** The :streamGenerateContent requests: the prompts that reached the model. */
  prompts(): { path: string; key?: string }[];
  close(): Promise<void>;
}

export async function fakeGemini(text: string): Promise<FakeGemini> {
  const requests: FakeGemini["requests"] = [];
  const reply = JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }] });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const key = req.headers["x-goog-api-key"];
      requests.push({ path: req.url ?? "", key: typeof key === "string" ? key : undefined });
      const streamed = req.url?.includes(":streamGenerateContent");
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
