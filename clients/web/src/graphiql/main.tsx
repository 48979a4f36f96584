// GraphiQL, built into the product like the app itself: `acc serve` answers it at `/graphql`
// when a browser asks for a page, so it works offline and under the server's strict
// Content-Security-Policy (no script from anywhere else, nothing inline).
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { GraphiQL } from "graphiql";
import "graphiql/style.css";
import "./graphiql.css";
import { graphiqlFetcher } from "./fetcher";

const fetcher = graphiqlFetcher(new URL(window.location.href));

createRoot(document.getElementById("graphiql")!).render(
  <StrictMode>
    <GraphiQL fetcher={fetcher} />
  </StrictMode>,
);
