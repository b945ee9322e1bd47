export default function NotFound() {
  return <h1>Oops this page doesn't exist.</h1>
}
