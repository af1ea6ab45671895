export default function AboutPage() {
  return (
    <main id="main" tabIndex={-1}>
      <h1>About</h1>
    </main>
  );
}
