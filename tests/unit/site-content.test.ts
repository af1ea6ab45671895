import { describe, expect, it } from "vitest";
import { courses, features, services, signUpCourses, welcome } from "~/content/site-content";

describe("site content", () => {
  it("has 8 services, 13 features, 12 courses, 36 sign-up options and 3 welcome blurbs", () => {
    expect(services).toHaveLength(8);
    expect(features).toHaveLength(13);
    expect(courses).toHaveLength(12);
    expect(signUpCourses).toHaveLength(36);
    expect(welcome.blurbs).toHaveLength(3);
  });

  it("lists the pay-after-placement courses in the specified order", () => {
    expect(courses.map(({ title, duration, price }) => [title, duration, price])).toEqual([
      ["Web Development", "6 Months", 15500],
      ["App Development", "6 Months", 22500],
      ["Native Development", "5 Months", 24500],
      ["Java", "5 Months", 15500],
      ["Python", "4 Months", 35500],
      ["Data Structures & Algorithms", "6 Months", 115500],
      ["C & C++", "4 Months", 15500],
      [".NET", "5 Months", 18500],
      ["C#", "5 Months", 12499],
      ["Linux", "3 Months", null],
      ["Ethical Hacking", "6 Months", 65000],
      ["Game Development", "6 Months", 45500],
    ]);
  });

  it("gives every course, service and feature real text and unique keys", () => {
    for (const course of courses) expect(course.details.length).toBeGreaterThan(40);
    for (const card of [...services, ...features, ...welcome.blurbs]) {
      expect(card.label.length).toBeGreaterThan(2);
      expect(card.value.length).toBeGreaterThan(5);
      expect(card.description.length).toBeGreaterThan(40);
      expect(card.description).not.toMatch(/lorem|ipsum/i);
    }
    expect(new Set(courses.map((c) => c.id)).size).toBe(12);
    expect(new Set(services.map((s) => s.label)).size).toBe(8);
    expect(new Set(features.map((f) => f.label)).size).toBe(13);
    expect(new Set(signUpCourses).size).toBe(36);
  });

  it("keeps the sign-up options exactly as the spec lists them", () => {
    expect(signUpCourses.join(", ")).toBe(
      "Web Development, App Development, UI/UX Design, C Programming, C++ Programming, Python, Java, Machine Learning, Data Science, Artificial Intelligence, Data Structures and Algorithms (DSA), 3D Animation, VFX, Game Development, Interior Design, AutoCAD, Ethical Hacking, Cyber-Security, Digital Marketing, Digital Photography, Video Editing, 3D Modeling, Web Design, Graphic Design, Motion Graphics, Animation, Video Production, Social Media Marketing, Content Writing, Copywriting, SEO, Digital Marketing Strategy, Social Media Management, Content Marketing, Email Marketing, Lead Generation",
    );
  });
});
