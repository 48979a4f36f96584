import { describe, expect, it } from "vitest";
import { match } from "./router";

describe("match", () => {
  it("extracts parameters and ignores a trailing slash", () => {
    expect(match("/runs/:id", "/runs/abc%20d/")).toEqual({ id: "abc d" });
    expect(match("/approvals", "/approvals")).toEqual({});
    expect(match("/", "/")).toEqual({});
  });
  it("rejects other paths", () => {
    expect(match("/runs/:id", "/tasks/1")).toBeNull();
    expect(match("/runs/:id", "/runs/1/events")).toBeNull();
    expect(match("/", "/nowhere")).toBeNull();
  });
});
