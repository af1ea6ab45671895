export default function PrivacyPolicyPage() {
  return (
    <main id="main" tabIndex={-1}>
      <h1>PrivacyPolicy</h1>
    </main>
  );
}
