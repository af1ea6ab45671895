export default function TermsAndConditionsPage() {
  return (
    <main id="main" tabIndex={-1}>
      <h1>TermsAndConditions</h1>
    </main>
  );
}
