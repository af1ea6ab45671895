import { describe, expect, it } from "vitest";
import { audienceWords, namesInWords } from "~/learners/audience";
import { queueCountText } from "~/assignments/assignment-rules";

describe("who a send reaches, in words", () => {
  it("names the search and the course the way the confirmation says them", () => {
    expect(audienceWords({ search: "", course: "" }, 200)).toBe("all 200 learners");
    expect(audienceWords({ search: "", course: "" }, 1)).toBe("the only learner");
    expect(audienceWords({ search: "", course: "" }, 12500)).toBe("all 12,500 learners");
    expect(audienceWords({ search: " pri ", course: "Web Development" }, 8)).toBe(
      '8 learners in Web Development whose name, email or phone contains "pri"',
    );
    expect(audienceWords({ search: "", course: "Java" }, 1)).toBe("1 learner in Java");
    expect(audienceWords({ search: "98765", course: "" }, 0)).toBe(
      '0 learners whose name, email or phone contains "98765"',
    );
  });

  it("lists a few names and counts the rest", () => {
    expect(namesInWords([])).toBe("");
    expect(namesInWords(["Asha"])).toBe("Asha");
    expect(namesInWords(["Asha", "Ravi"])).toBe("Asha and Ravi");
    expect(namesInWords(["Asha", "Ravi", "Priya"])).toBe("Asha, Ravi and Priya");
    expect(namesInWords(["Asha", "Ravi", "Priya", "Omkar"])).toBe("Asha, Ravi and 2 more");
  });
});

describe("the review queue's counts", () => {
  it("shows the figure up to what is counted, and past it that figure with a plus", () => {
    expect(queueCountText(0)).toBe("0");
    expect(queueCountText(1000)).toBe("1,000");
    expect(queueCountText(1001)).toBe("1,000+");
    expect(queueCountText(13, 12)).toBe("12+");
  });
});
