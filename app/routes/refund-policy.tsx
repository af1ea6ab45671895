export default function RefundPolicyPage() {
  return (
    <main id="main" tabIndex={-1}>
      <h1>RefundPolicy</h1>
    </main>
  );
}
