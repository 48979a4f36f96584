// The signed-in user and their organization: the header shows them, settings start from the
// organization's scope.
import { graphql } from "../gql";

export const ViewerQuery = graphql(`
  query Viewer {
    viewer {
      id
      email
      displayName
      organization {
        id
        name
      }
    }
  }
`);
