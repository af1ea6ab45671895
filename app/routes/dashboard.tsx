import { redirect } from "react-router";

/** Signed out: back to the public page. (The learner dashboard arrives with accounts.) */
export function loader() {
  throw redirect("/");
}

export default function Dashboard() {
  return null;
}
