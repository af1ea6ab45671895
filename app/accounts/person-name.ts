/** What the product calls a person: their username, else their name, else their email. */
export function personName(person: { username: string | null; name: string | null; email: string | null }): string {
  return person.username || person.name || person.email || "";
}
