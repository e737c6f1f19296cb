#pragma once
struct StepKernel {};
