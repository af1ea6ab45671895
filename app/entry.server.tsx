import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter, isRouteErrorResponse } from "react-router";
import { NonceContext, cspNonceContext } from "~/http/csp";
import { RenderedPages } from "~/http/rendered-pages.server";
import { requestIdContext } from "~/http/request-context";
import { getLogger } from "~/logging/logger.server";

export const streamTimeout = 5_000;

/**
 * The router's own refusals (a POST or OPTIONS to a page without an action, say) are the
 * client's mistake: one warn line. Anything else is ours, logged with its stack.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const path = new URL(request.url).pathname;
  const reqId = context.get(requestIdContext);
  if (isRouteErrorResponse(error) && error.status < 500) {
    // The router keeps its internal error beside the response (not in the public type).
    const internal = (error as { error?: unknown }).error;
    const reason = internal instanceof Error ? internal.message : error.statusText;
    getLogger().warn(
      { reqId, method: request.method, path, status: error.status, reason },
      "request refused by the router",
    );
    return;
  }
  getLogger().error({ reqId, method: request.method, path, err: error }, "request failed in the app");
};

const renderedPages = new RenderedPages(32 * 1024 * 1024);

/**
 * Every page is rendered whole before it is sent (no page streams a slow part), which also lets
 * a signed-in page whose address and data are unchanged be sent without rendering it again.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // Null for the shared anonymous-page cache, whose pages carry no nonce.
  const nonce = loadContext.get(cspNonceContext) ?? undefined;
  const { errors, actionData } = routerContext.staticHandlerContext;
  const answer = (html: { text: string; failed: boolean }) =>
    new Response(html.text, { status: html.failed ? 500 : responseStatusCode, headers: responseHeaders });
  // Kept in memory: GET pages that answered 200 without errors, whose HTML follows from the
  // address and the data alone.
  if (nonce === undefined || request.method !== "GET" || responseStatusCode !== 200 || errors || actionData) {
    return answer(await renderDocument(routerContext, request.url, nonce));
  }

  const handoff = await readAll(routerContext.serverHandoffStream);
  routerContext.serverHandoffStream = streamOf(handoff);
  const key = renderedPages.key([request.url, ...handoff]);
  const known = renderedPages.get(key, nonce);
  if (known !== undefined) return answer({ text: known, failed: false });

  const html = await renderDocument(routerContext, request.url, renderedPages.nonceSlot);
  if (!html.failed) renderedPages.set(key, html.text);
  return answer({ ...html, text: renderedPages.withNonce(html.text, nonce) });
}

/** The whole document; `failed` when a part of it could not be rendered. */
function renderDocument(
  routerContext: EntryContext,
  url: string,
  nonce: string | undefined,
): Promise<{ text: string; failed: boolean }> {
  return new Promise((resolve, reject) => {
    let failed = false;
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeout);
        resolve({ text: Buffer.concat(chunks).toString("utf8"), failed });
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <ServerRouter context={routerContext} url={url} nonce={nonce} />
      </NonceContext>,
      {
        nonce,
        onAllReady() {
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          failed = true;
          getLogger().error({ err: error }, "a part of the page could not be rendered");
        },
      },
    );
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
  });
}

async function readAll(stream: ReadableStream<Uint8Array> | undefined): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  if (!stream) return chunks;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return chunks;
}

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}
