export default function ServerError() {
  return <h1>An unknown error occurred</h1>
}
