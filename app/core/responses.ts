/** A resource route's refusal, as JSON. */
export function refuseJson(status: number, message: string): Response {
  return Response.json({ message }, { status, headers: { "Cache-Control": "private, no-store" } });
}
