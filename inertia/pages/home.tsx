export default function Home() {
  return <h1>Tern</h1>
}
