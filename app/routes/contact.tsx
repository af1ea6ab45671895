export default function ContactPage() {
  return (
    <main id="main" tabIndex={-1}>
      <h1>Contact</h1>
    </main>
  );
}
