import { writePieces, type RouterStage } from "~/http/router-stage.server";

/**
 * A router stage for the kept-answers stage's tests: answers nothing to a client that has gone,
 * else renders `<p nonce=…>path</p>` (with ` by <who>` when given), keeps it and writes it as
 * the router does, noting each render's request id in `rendered`. The router's Request is
 * handed to `prepare` first.
 */
export function pageRouter(rendered: string[], who?: string): RouterStage {
  return {
    serve(_req, res, requestId, pathname, keep, prepare) {
      if (res.closed) return "refused";
      prepare?.(new Request(`http://localhost${pathname}`));
      rendered.push(requestId);
      const nonce = `nonce-of-${requestId}`;
      const body = Buffer.from(`<p nonce="${nonce}">${pathname}${who ? ` by ${who}` : ""}</p>`);
      const response = new Response(body, { headers: { "content-type": "text/html" } });
      // As the router writes it: the kept answer's pieces, or the body when it was not kept.
      void (keep ? keep(nonce, response, body) : Promise.resolve(undefined)).then((kept) => {
        res.setHeader("content-type", "text/html");
        if (kept) return writePieces(res, kept);
        res.writeHead(200, { "content-length": String(body.length) });
        res.end(body);
      });
      return "refused";
    },
    renderAnonymous: () => Promise.reject(new Error("not used")),
  };
}
