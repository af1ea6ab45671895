export default function HomePage() {
  return (
    <main id="main" tabIndex={-1}>
      <h1>Home</h1>
    </main>
  );
}
