// The ACP content of one prompt: its text, then each attachment in the form
// Lathe says it accepts (promptCapabilities). Pure, so tests check it in node.
import type * as acp from "@agentclientprotocol/sdk";
import type { Attachment } from "./chatView";

const IMAGE_TYPES: Record<string, string> = {
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp",
};

/** The MIME type of an image file by its extension, else undefined. */
export function imageType(path: string): string | undefined {
  return IMAGE_TYPES[path.split(".").pop()?.toLowerCase() ?? ""];
}

export interface PromptContent {
  blocks: acp.ContentBlock[];
  /** Data URIs of the images sent, for the chat's own copy of the prompt. */
  images: string[];
  /** Attachments that could not be sent as Lathe accepts content, by label. */
  refused: string[];
}

export function promptContent(text: string, attachments: Attachment[], caps: acp.PromptCapabilities | undefined): PromptContent {
  const out: PromptContent = { blocks: [{ type: "text", text }], images: [], refused: [] };
  for (const a of attachments) {
    if (a.image) {
      if (caps?.image === true) {
        out.blocks.push({ type: "image", mimeType: a.image.mimeType, data: a.image.data, ...(a.uri ? { uri: a.uri } : {}) });
        out.images.push(`data:${a.image.mimeType};base64,${a.image.data}`);
      } else if (a.uri) out.blocks.push({ type: "resource_link", uri: a.uri, name: a.label });
      else out.refused.push(a.label);
    } else if (a.text !== undefined && a.uri && caps?.embeddedContext === true) {
      out.blocks.push({ type: "resource", resource: { uri: `${a.uri}#L${a.range}`, text: a.text } });
    } else if (a.uri) out.blocks.push({ type: "resource_link", uri: a.uri, name: a.label });
  }
  return out;
}
